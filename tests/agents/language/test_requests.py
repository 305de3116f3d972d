import asyncio
import json

import pytest

from agents.language.answers import PlaceOption, PlanBlock
from agents.language.backends import ScriptedBackend
from agents.language.gateway import Gateway, GatewayConfig
from agents.language.loopback_answers import answer_for_messages
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
    ReactionRequest,
    ReflectionQuestionsRequest,
    ScheduleRewriteRequest,
    WakeUpRequest,
)

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
        ISABELLA, NOON, "serving coffee", "Maria Lopez", "studying", ("Maria Lopez is a loyal friend to me",)
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
        ISABELLA, "What do I know about Maria Lopez?", ((3, "Maria Lopez is studying"), (7, PARTY))
    ),
    "day_summary": DaySummaryRequest(ISABELLA, DAY, ("Maria Lopez told me: she is coming to the party",)),
    "interview": InterviewRequest(ISABELLA, NOON, "Are you planning a party?", (PARTY, "I love my work")),
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
    assert f"{kind} answer for Isabella Rodriguez failed twice" in caplog.text


def test_offline_isabella_wakes_at_six_and_works_at_the_cafe():
    assert REQUESTS["wake_up"].parse(offline_answer(REQUESTS["wake_up"], 0)) == 6
    plan = REQUESTS["day_plan"].parse(offline_answer(REQUESTS["day_plan"], 0))
    assert "from 8:00 am to 12:00 pm, working at Hobbs Cafe" in plan
    schedule = HourlyScheduleRequest(ISABELLA, DAY, 6, plan)
    blocks = schedule.parse(offline_answer(schedule, 0))
    assert sum(block.minutes for block in blocks) == 1440
    minute, at_eight = 0, None
    for block in blocks:
        if minute <= 8 * 60 < minute + block.minutes:
            at_eight = block.activity
        minute += block.minutes
    assert at_eight == "working at Hobbs Cafe"


def test_offline_actions_go_to_sensible_places():
    serve, sleep = REQUESTS["action"].parse(offline_answer(REQUESTS["action"], 0))
    assert (serve.sector, serve.game_object) == ("Hobbs Cafe", "behind the cafe counter")
    assert (sleep.sector, sleep.game_object) == ("Isabella Rodriguez's apartment", "bed")


def test_offline_talk_passes_on_news_and_the_listener_keeps_it():
    turn = REQUESTS["conversation_line"].parse(offline_answer(REQUESTS["conversation_line"], 0))
    assert "Valentine's Day party" in turn.line
    summary = REQUESTS["conversation_summary"].parse(offline_answer(REQUESTS["conversation_summary"], 0))
    assert "Valentine's Day party" in dict(summary.takeaways)["Maria Lopez"]


def test_decomposition_fills_the_block_with_short_actions():
    blocks = REQUESTS["decompose"].parse(offline_answer(REQUESTS["decompose"], 0))
    assert sum(block.minutes for block in blocks) == 60
    assert all(5 <= block.minutes <= 15 for block in blocks)
    model_answer = json.dumps({"actions": [{"action": "serving", "minutes": 40}, {"action": "cleaning", "minutes": 7}]})
    blocks = REQUESTS["decompose"].parse(model_answer)
    assert sum(block.minutes for block in blocks) == 60 and all(5 <= b.minutes <= 15 for b in blocks)


def test_offline_is_deterministic_for_a_seed():
    request = REQUESTS["decompose"]
    assert offline_answer(request, 1) == offline_answer(request, 1)
    assert len({offline_answer(request, seed) for seed in range(6)}) > 1


def test_action_answer_naming_an_unknown_place_is_refused():
    answer = {"actions": [{"sector": "Atlantis", "arena": "palace"}] * 2}
    with pytest.raises(AnswerError, match="Atlantis > palace is not one of the places"):
        REQUESTS["action"].parse(json.dumps(answer))
