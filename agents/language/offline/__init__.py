"""The offline mind: a deterministic baseline that answers every request from that request's own fields.

It sees only what a language model would see in the prompt, never the town's state, and derives any variation from
a stable hash of the request and the seed. It is free and reproducible; it is not believable behaviour.
"""

import json
from collections.abc import Callable
from typing import Any

from agents.language import requests as asks
from agents.language.offline import interviewing, judging, noticing, places, planner, talk, thinking
from agents.language.offline.salience import importance_of
from agents.language.request import Request
from agents.language.requests import evaluation


def _scored(request: asks.ScoredRequest, seed: int) -> dict:
    """The inner request's answer, with the queued memories rated as an importance request would rate them."""
    answer = HANDLERS[type(request.inner)](request.inner, seed)
    persona = request.inner.fields().get("persona", "")
    return {**answer, "scores": [importance_of(memory, persona) for memory in request.memories]}


HANDLERS: dict[type, Callable[[Any, int], dict]] = {
    asks.ImportanceRequest: thinking.importance,
    asks.WakeUpRequest: planner.wake_up,
    asks.DayPlanRequest: planner.day_plan,
    asks.HourlyScheduleRequest: planner.hourly_schedule,
    asks.DecomposeRequest: planner.decompose,
    asks.ScheduleRewriteRequest: planner.rewrite,
    asks.ActionRequest: places.choose_places,
    asks.ReactionRequest: talk.react,
    asks.ObjectReactionRequest: noticing.react_to_object,
    asks.ConversationLineRequest: talk.line,
    asks.ConversationSummaryRequest: talk.summarize,
    asks.ReflectionQuestionsRequest: thinking.questions,
    asks.InsightsRequest: thinking.insights,
    asks.DaySummaryRequest: thinking.day_summary,
    asks.InterviewRequest: interviewing.interview,
    asks.JudgeRequest: judging.judge,
    asks.ScoredRequest: _scored,
}
# The evaluation's own requests (the paper's judge and fact checks), answered by the same rules of thumb.
EVALUATION_HANDLERS: dict[type, Callable[[Any, int], dict]] = {
    evaluation.RankRequest: judging.rank,
    evaluation.FactCheckRequest: judging.fact_check,
    evaluation.GroundRequest: judging.ground,
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
