"""The offline mind as a judge: it ranks answers by their specifics and checks facts by shared words.

Like the rest of the offline mind it reads only the request's fields. Its verdicts test the evaluation's code paths;
they say nothing about believability.
"""

import re

from agents.language.offline.thinking import STOP_WORDS
from agents.language.requests.evaluation import FactCheckRequest, RankRequest

_NAME = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")
_WORD = re.compile(r"[a-z']+")
# Answers that say the speaker does not know show no fact, whatever words they share with it.
_UNKNOWING = re.compile(r"\b(don't|do not|didn't|never|no idea|not sure|haven't)\b", re.IGNORECASE)
# Share of the fact's content words an answer must contain to show it.
SHOWN_SHARE = 0.5


def words(text: str) -> set[str]:
    """Content words of a text, lower case."""
    return set(_WORD.findall(text.lower())) - STOP_WORDS


def specifics(answer: str, context: set[str]) -> int:
    """Names, numbers and words shared with the context: what makes an answer specific."""
    return len(_NAME.findall(answer)) + len(re.findall(r"\d", answer)) + len(context & words(answer))


def rank(request: RankRequest, seed: int) -> dict:
    """Most specific first; ties keep the order shown (so repeated orders cancel that bias out)."""
    del seed
    context = words(request.context) | words(request.question)
    order = sorted(range(len(request.answers)), key=lambda index: -specifics(request.answers[index], context))
    return {"ranking": [request.labels[index] for index in order], "reason": "the most specific answers first"}


def fact_check(request: FactCheckRequest, seed: int) -> dict:
    """Shown when the answer holds at least half of the fact's content words and does not deny knowing."""
    del seed
    fact = words(request.fact)
    shared = len(fact & words(request.answer)) / max(1, len(fact))
    shows = shared >= SHOWN_SHARE and not _UNKNOWING.search(request.answer[:80])
    return {"shows": shows, "reason": f"{shared:.0%} of the fact's words are in the answer"}
