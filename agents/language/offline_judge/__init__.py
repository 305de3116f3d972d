"""The offline judge: a deterministic stand-in for the evaluation's judge model, apart from the mind it judges.

It ranks and compares interview answers by shares that length cannot buy, checks whether an answer states a fact,
and finds the memories that ground it (judging.py, claims.py, details.py), reading only the request's fields, with
its own rules of English (reading.py, which inflects with the offline mind's grammar, offline/morphology.py). It
answers the evaluation's requests, never an agent's: the offline mind's budget (the cognition's size) does not pay
for it; its own is the evaluation's judging code it stands in for (docs/cognition.md,
tests/agents/test_offline_size.py).
"""

from collections.abc import Callable
from typing import Any

from agents.language.offline_judge.judging import fact_check, ground, judge, rank
from agents.language.requests import JudgeRequest
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest

# The judge's requests (the paper's pairwise and ranked judgements, its fact checks), each with its answer.
HANDLERS: dict[type, Callable[[Any, int], dict]] = {
    JudgeRequest: judge,
    RankRequest: rank,
    FactCheckRequest: fact_check,
    GroundRequest: ground,
}

__all__ = ["HANDLERS"]
