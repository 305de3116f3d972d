"""The offline mind: a deterministic baseline that answers every request from that request's own fields.

It sees only what a language model would see in the prompt, never the town's state, and derives any variation from
a stable hash of the request and the seed. It is free and reproducible; it is not believable behaviour.
"""

import json
from collections.abc import Callable
from typing import Any

from agents.language.offline import interviewing, judging, noticing, places, planner, talk, thinking
from agents.language.offline.salience import importance_of
from agents.language.request import Request
from agents.language.requests import (
    ActionRequest,
    ConversationLineRequest,
    ConversationSummaryRequest,
    DayPlanRequest,
    DaySummaryRequest,
    DecomposeRequest,
    HourlyScheduleRequest,
    ImportanceRequest,
    InsightsRequest,
    InterviewRequest,
    JudgeRequest,
    ObjectReactionRequest,
    ReactionRequest,
    ReflectionQuestionsRequest,
    ScheduleRewriteRequest,
    ScoredRequest,
    WakeUpRequest,
)
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest


def _wake_up(request: WakeUpRequest, seed: int) -> dict:
    del seed
    return {"hour": planner.wake_hour(request.identity)}


def _day_plan(request: DayPlanRequest, seed: int) -> dict:
    del seed
    return {"plan": planner.plan_items(planner.day_blocks(request.identity, request.today, request.wake_hour))}


def _hourly(request: HourlyScheduleRequest, seed: int) -> dict:
    del seed
    blocks = planner.blocks_from_plan(request.day_plan, request.wake_hour)
    return {"schedule": [{"activity": activity, "minutes": minutes} for activity, minutes in blocks]}


def _decompose(request: DecomposeRequest, seed: int) -> dict:
    pieces = planner.decompose(request.activity, request.minutes, seed)
    return {"actions": [{"action": action, "minutes": minutes} for action, minutes in pieces]}


def _rewrite(request: ScheduleRewriteRequest, seed: int) -> dict:
    del seed
    schedule = [{"activity": request.inserted, "minutes": request.inserted_minutes}]
    skip = request.inserted_minutes
    for block in request.remaining:
        kept = block.minutes - min(skip, block.minutes)
        skip -= block.minutes - kept
        if kept:
            schedule.append({"activity": block.activity, "minutes": kept})
    return {"schedule": schedule}


def _actions(request: ActionRequest, seed: int) -> dict:
    return {"actions": places.choose_places(request, seed)}


def _scored(request: ScoredRequest, seed: int) -> dict:
    """The inner request's answer, with the queued memories rated as an importance request would rate them."""
    answer = HANDLERS[type(request.inner)](request.inner, seed)
    return {**answer, "scores": [importance_of(memory) for memory in request.memories]}


HANDLERS: dict[type, Callable[[Any, int], dict]] = {
    ImportanceRequest: thinking.importance,
    WakeUpRequest: _wake_up,
    DayPlanRequest: _day_plan,
    HourlyScheduleRequest: _hourly,
    DecomposeRequest: _decompose,
    ScheduleRewriteRequest: _rewrite,
    ActionRequest: _actions,
    ReactionRequest: talk.react,
    ObjectReactionRequest: noticing.react_to_object,
    ConversationLineRequest: talk.line,
    ConversationSummaryRequest: talk.summarize,
    ReflectionQuestionsRequest: thinking.questions,
    InsightsRequest: thinking.insights,
    DaySummaryRequest: thinking.day_summary,
    InterviewRequest: interviewing.interview,
    JudgeRequest: judging.judge,
    ScoredRequest: _scored,
}
# The evaluation's own requests (the paper's judge and fact checks), answered by the same rules of thumb.
EVALUATION_HANDLERS: dict[type, Callable[[Any, int], dict]] = {
    RankRequest: judging.rank,
    FactCheckRequest: judging.fact_check,
    GroundRequest: judging.ground,
}


def offline_answer(request: Request, seed: int) -> str:
    """The offline mind's answer to a request, as the JSON text its parser reads.

    Raises:
        TypeError: For a request type the offline mind does not know.
    """
    handler = HANDLERS.get(type(request)) or EVALUATION_HANDLERS.get(type(request))
    if handler is None:
        raise TypeError(f"the offline mind cannot answer {type(request).__name__} requests")
    return json.dumps(handler(request, seed), ensure_ascii=False)


__all__ = ["EVALUATION_HANDLERS", "HANDLERS", "offline_answer"]
