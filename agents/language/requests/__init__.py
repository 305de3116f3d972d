"""Every request the agents make of a language model, one typed class each."""

from agents.language.requests.acting import ActionRequest
from agents.language.requests.evaluation import InterviewRequest, JudgeRequest
from agents.language.requests.noticing import ObjectReactionRequest
from agents.language.requests.planning import (
    DayPlanRequest,
    DecomposeRequest,
    HourlyScheduleRequest,
    ScheduleRewriteRequest,
    WakeUpRequest,
)
from agents.language.requests.reflecting import DaySummaryRequest, InsightsRequest, ReflectionQuestionsRequest
from agents.language.requests.riding import Scored, ScoredRequest
from agents.language.requests.scoring import ImportanceRequest
from agents.language.requests.social import ConversationLineRequest, ConversationSummaryRequest, ReactionRequest

ALL_REQUESTS = (
    ImportanceRequest,
    WakeUpRequest,
    DayPlanRequest,
    HourlyScheduleRequest,
    DecomposeRequest,
    ActionRequest,
    ReactionRequest,
    ObjectReactionRequest,
    ConversationLineRequest,
    ConversationSummaryRequest,
    ScheduleRewriteRequest,
    ReflectionQuestionsRequest,
    InsightsRequest,
    DaySummaryRequest,
    InterviewRequest,
    JudgeRequest,
    ScoredRequest,
)

__all__ = [
    "ALL_REQUESTS",
    "ActionRequest",
    "ConversationLineRequest",
    "ConversationSummaryRequest",
    "DayPlanRequest",
    "DaySummaryRequest",
    "DecomposeRequest",
    "HourlyScheduleRequest",
    "ImportanceRequest",
    "InsightsRequest",
    "InterviewRequest",
    "JudgeRequest",
    "ObjectReactionRequest",
    "ReactionRequest",
    "ReflectionQuestionsRequest",
    "ScheduleRewriteRequest",
    "Scored",
    "ScoredRequest",
    "WakeUpRequest",
]
