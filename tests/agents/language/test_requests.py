"""Every request type: its template renders, offline and loopback answers parse, bad answers are repaired."""

import asyncio
import json

import pytest

from agents.language.answers import PlaceOption, PlanBlock
from agents.language.backends import ScriptedBackend
from agents.language.gateway import Gateway, GatewayConfig
from agents.language.offline import HANDLERS, offline_answer
from agents.language.request import AnswerError
from agents.language.requests import (
    ALL_REQUESTS,
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
from testing import answer_for_messages

from ..personas import DAY, NOON, identity

ISABELLA = identity("Isabella Rodriguez")
CAFE = PlaceOption("Hobbs Cafe", "cafe", ("behind the cafe counter", "piano"))
HOME = PlaceOption("Isabella Rodriguez's apartment", "main room", ("bed", "desk"))
PARTY = "I am excited to be planning a Valentine's Day party at *Hobbs Cafe on February 14th from 5pm*"
LINES = (("Isabella Rodriguez", "Hi Maria! " + PARTY), ("Maria Lopez", "That sounds lovely!"))

REQUESTS = {
    "importance": ImportanceRequest(ISABELLA, ("the bed is idle", PARTY)),
    "wake_up": WakeUpRequest(ISABELLA),
    "day_plan": DayPlanRequest(ISABELLA, DAY, 6, ""),
    "hourly_schedule": HourlyScheduleRequest(ISABELLA, DAY, 6, ("from 8:00 am to 8:00 pm, working at Hobbs Cafe",)),
    "decompose": DecomposeRequest(ISABELLA, "working at Hobbs Cafe", 480, 60, "having breakfast", "having lunch"),
    "action": ActionRequest(
        ISABELLA, ("working at Hobbs Cafe (serving customers)", "sleeping"), "Hobbs Cafe", "cafe", (CAFE, HOME)
    ),
    "reaction": ReactionRequest(
        ISABELLA,
        NOON,
        "serving coffee",
        "Maria Lopez",
        "studying",
        ("Maria Lopez is a loyal friend to me",),
        shared_place="the Ville:Hobbs Cafe:cafe:behind the cafe counter",
    ),
    "object_reaction": ObjectReactionRequest(
        ISABELLA,
        NOON,
        "serving coffee",
        "the Ville:Hobbs Cafe:cafe:behind the cafe counter",
        "the Ville:Hobbs Cafe:cafe:cooking area",
        "burning",
        ("the cooking area is burning",),
    ),
    "conversation_line": ConversationLineRequest(
        ISABELLA, "Maria Lopez", "Hobbs Cafe", NOON, (PARTY, "I love my work"), ()
    ),
    "conversation_summary": ConversationSummaryRequest("Isabella Rodriguez", "Maria Lopez", LINES),
    "schedule_rewrite": ScheduleRewriteRequest(
        ISABELLA, 600, "talking with Maria Lopez", 5, (PlanBlock("working", 60),)
    ),
    "reflection_questions": ReflectionQuestionsRequest(ISABELLA, ("Maria Lopez is studying", PARTY), 3),
    "insights": InsightsRequest(
        ISABELLA,
        (("What do I know about Maria Lopez?", (3, 7)), ("What is Isabella planning?", (7,))),
        ((3, "Maria Lopez is studying"), (7, PARTY)),
    ),
    "day_summary": DaySummaryRequest(ISABELLA, DAY, ((NOON, "Maria Lopez told me: she is coming to the party"),)),
    "interview": InterviewRequest(ISABELLA, NOON, "Are you planning a party?", (PARTY, "I love my work")),
    "scored": ScoredRequest(
        ReactionRequest(ISABELLA, NOON, "serving coffee", "Maria Lopez", "studying"),
        "Isabella Rodriguez",
        ("Maria Lopez is studying", PARTY),
    ),
    "judge": JudgeRequest(
        "Who is hosting a party?", "Isabella owns Hobbs Cafe", "Isabella, at 5 pm at Hobbs Cafe", "no idea"
    ),
}
IDS = sorted(REQUESTS)


def test_every_request_type_is_covered():
    assert {cls.kind for cls in ALL_REQUESTS} == set(REQUESTS)
    assert set(HANDLERS) == set(ALL_REQUESTS)


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_offline_answer_parses_and_template_renders(kind):
    request = REQUESTS[kind]
    assert request.parse(offline_answer(request, seed=0)) is not None
    assert "$" not in request.messages()[1]["content"].replace("$persona", "")
    assert request.fallback() is not None or kind == "insights"


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_loopback_answer_parses(kind):
    request = REQUESTS[kind]
    request.parse(answer_for_messages(request.messages()))


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_a_bad_answer_is_refused(kind):
    with pytest.raises(AnswerError):
        REQUESTS[kind].parse("I would rather not say.")


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_bad_answer_is_repaired_then_falls_back_logged_and_counted(kind, caplog):
    request = REQUESTS[kind]
    good = offline_answer(request, 0)
    repaired = Gateway(GatewayConfig(model="scripted/x"), backends={"scripted/x": ScriptedBackend(["nonsense", good])})
    assert asyncio.run(repaired.ask(request, "Isabella Rodriguez")) == request.parse(good)
    assert repaired.ledger.totals().repairs == 1 and repaired.ledger.totals().calls == 2
    failing = Gateway(GatewayConfig(model="scripted/x"), backends={"scripted/x": ScriptedBackend(["nonsense", "nope"])})
    assert asyncio.run(failing.ask(request, "Isabella Rodriguez")) == request.fallback()
    assert failing.ledger.totals().fallbacks == 1
    assert f"{request.kind} answer for Isabella Rodriguez failed twice" in caplog.text


def test_action_answer_naming_an_unknown_place_is_refused():
    answer = {"actions": [{"sector": "Atlantis", "arena": "palace"}] * 2}
    with pytest.raises(AnswerError, match="Atlantis > palace is not one of the places"):
        REQUESTS["action"].parse(json.dumps(answer))


@pytest.mark.parametrize("n", [1, 5], ids=["one", "five"])
def test_loopback_asks_as_many_reflection_questions_as_requested(n):
    request = ReflectionQuestionsRequest(ISABELLA, ("Maria Lopez is studying",), n)
    assert len(request.parse(answer_for_messages(request.messages()))) == n


def test_a_last_talk_already_among_the_memories_is_pointed_to_not_repeated_with_when_it_was():
    chat = "conversation with Maria Lopez: the party"
    request = ReactionRequest(ISABELLA, NOON, "serving coffee", "Maria Lopez", "studying", ("x", chat), chat, 125)
    prompt = request.messages()[1]["content"]
    assert prompt.count(chat) == 1 and "They last talked 2 hours and 5 minutes ago (memory 2 above)." in prompt
