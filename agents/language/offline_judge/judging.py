"""The offline mind as a judge: it ranks answers by shares length cannot buy, and checks facts by reading claims.

Like the rest of the offline mind it reads only the request's fields. Its rankings test the evaluation's code paths
and say little about believability, but length cannot buy them (`quality`: shares, not counts); its fact checks and
groundings follow generic rules of English (claims.py),
measured on the labelled answers in data/evaluation/labelled/ (`benchmarks/bench_measures.py --judge offline`).
"""

import re

from agents.language.english.words import FULL_NAME, content_words, sentences_of
from agents.language.offline_judge.claims import clauses, states
from agents.language.offline_judge.reading import same_word, stem
from agents.language.requests import JudgeRequest
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest

# Steps a share is rounded to: answers that differ by less are equally good (a draw), as a reader would see them.
GRADES = 4


def quality(answer: str, question: str, context: str) -> int:
    """How well an answer answers, in shares that length cannot buy: 0 when it asserts nothing.

    The share of the question's topic words it takes up, and the share of its sentences that are specific (a name,
    a number or a word of the persona's context), each rounded to GRADES steps. A longer answer is neither better
    nor worse for being longer: a sentence that adds nothing specific lowers the second share.
    """
    if not clauses(answer):
        return 0
    topic = {word for word in content_words(question) if len(word) > 3}
    words = content_words(answer)
    covered = sum(1 for word in topic if any(same_word(stem(word), stem(mine)) for mine in words))
    coverage = covered / len(topic) if topic else 1.0
    known = content_words(context) | topic
    sentences = sentences_of(answer) or [answer]
    specific = [s for s in sentences if FULL_NAME.search(s) or re.search(r"\d", s) or known & content_words(s)]
    return 1 + round(GRADES * coverage) + round(GRADES * len(specific) / len(sentences))


def rank(request: RankRequest, seed: int) -> dict:
    """Best first by `quality`; answers of equal quality share a group (a draw), whatever order they were shown in."""
    del seed
    scores = [quality(answer, request.question, request.context) for answer in request.answers]
    groups = [
        [label for label, score in zip(request.labels, scores, strict=True) if score == value]
        for value in sorted(set(scores), reverse=True)
    ]
    return {"reason": "the answers that take up the question and say specific things first", "ranking": groups}


def judge(request: JudgeRequest, seed: int) -> dict:
    """The answer of better `quality` (the first when they are equal)."""
    del seed
    a, b = (quality(answer, request.question, request.context) for answer in (request.answer_a, request.answer_b))
    choice = "a" if a >= b else "b"
    return {"reason": f"answer {choice} answers better ({max(a, b)} vs {min(a, b)})", "choice": choice}


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
