"""The offline mind as a judge: it ranks answers by their specifics, and checks facts by reading claims.

Like the rest of the offline mind it reads only the request's fields. Its rankings test the evaluation's code paths
and say nothing about believability; its fact checks and groundings follow generic rules of English (claims.py),
measured on the labelled answers in data/evaluation/labelled/ (`benchmarks/bench_measures.py --judge offline`).
"""

import re

from agents.language.offline.claims import states
from agents.language.offline.words import FULL_NAME, content_words
from agents.language.requests import JudgeRequest
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest


def specifics(answer: str, context: set[str]) -> int:
    """Names, numbers and words shared with the context: what makes an answer specific."""
    return len(FULL_NAME.findall(answer)) + len(re.findall(r"\d", answer)) + len(context & content_words(answer))


def rank(request: RankRequest, seed: int) -> dict:
    """Most specific first; answers equally specific share a group (a draw), whatever order they were shown in."""
    del seed
    context = content_words(request.context) | content_words(request.question)
    scores = [specifics(answer, context) for answer in request.answers]
    groups = [
        [label for label, score in zip(request.labels, scores, strict=True) if score == value]
        for value in sorted(set(scores), reverse=True)
    ]
    return {"reason": "the most specific answers first; equally specific ones tie", "ranking": groups}


def judge(request: JudgeRequest, seed: int) -> dict:
    """The answer with more specifics (names, numbers) and more words in common with the context."""
    del seed
    context = content_words(request.context) | content_words(request.question)
    a, b = specifics(request.answer_a, context), specifics(request.answer_b, context)
    choice = "a" if a >= b else "b"
    return {"reason": f"answer {choice} is grounded in more specifics ({max(a, b)} vs {min(a, b)})", "choice": choice}


def fact_check(request: FactCheckRequest, seed: int) -> dict:
    """Shown when an asserting clause of the answer states the fact (claims.states)."""
    del seed
    shows = states(request.fact, request.answer, speaker=request.speaker, question=request.question, spoken=True)
    reason = "the answer states the fact" if shows else "no asserting clause of the answer states the fact"
    return {"reason": reason, "shows": shows}


def ground(request: GroundRequest, seed: int) -> dict:
    """The memories that, read as their holder's, state the fact."""
    del seed
    supporting = [
        number
        for number, memory in enumerate(request.memories, start=1)
        if states(request.fact, memory, speaker=request.speaker)
    ]
    return {"reason": f"{len(supporting)} of the memories state the fact", "supported_by": supporting}
