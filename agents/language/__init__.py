"""The one gateway to language models: typed requests, their answers, backends, cache, routing and accounting.

The face of the language floor for the town above (smallville/): the requests a mind or an evaluation makes, the
answers they parse into, the records a run keeps of its calls, the offline mind's answer function and a scripted
backend for towns whose truth is known. Importing it loads no model library: litellm loads when a litellm model is
first called.
"""

from agents.language import requests
from agents.language.accounting import CallRecord
from agents.language.answers import ConversationSummary, ConversationTurn, PlaceOption, PlanBlock
from agents.language.backends import ScriptedBackend
from agents.language.backends.offline import offline_answer
from agents.language.backends.providers import wire_form, without_credentials
from agents.language.gateway import asks_reported_to, budget_checked_by_caller
from agents.language.journal import AnswerJournal
from agents.language.prompt_log import PromptLog
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request, extract_json
from agents.language.requests import *  # noqa: F403  (the face passes on every request kind in requests.__all__)
from agents.language.requests.batches import FactChecksRequest, InterviewsRequest, RanksRequest
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest
from agents.language.tokens import count_tokens

__all__ = [
    "AnswerError",
    "AnswerJournal",
    "CallRecord",
    "ConversationSummary",
    "ConversationTurn",
    "FactCheckRequest",
    "FactChecksRequest",
    "GroundRequest",
    "InterviewsRequest",
    "PlaceOption",
    "PlanBlock",
    "PromptLog",
    "RankRequest",
    "RanksRequest",
    "Request",
    "ScriptedBackend",
    "asks_reported_to",
    "budget_checked_by_caller",
    "count_tokens",
    "extract_json",
    "offline_answer",
    "quote",
    "wire_form",
    "without_credentials",
]
__all__ += requests.__all__
