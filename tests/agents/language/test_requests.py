"""Every request type: its template renders, offline and loopback answers parse, bad answers are repaired."""

import asyncio
import json

import pytest

from agents.language import offline_judge
from agents.language.backends import ScriptedBackend
from agents.language.gateway import Gateway, GatewayConfig
from agents.language.offline import HANDLERS, offline_answer
from agents.language.request import AnswerError
from agents.language.requests import (
    ALL_REQUESTS,
    ReactionRequest,
    ReflectionQuestionsRequest,
)
from testing import answer_for_messages

from ..personas import NOON
from .request_cases import ISABELLA, REQUESTS

IDS = sorted(REQUESTS)


def test_every_request_type_is_covered():
    assert {cls.kind for cls in ALL_REQUESTS} == set(REQUESTS)
    assert set(HANDLERS) | set(offline_judge.HANDLERS) >= set(ALL_REQUESTS)
    assert set(HANDLERS) <= set(ALL_REQUESTS)  # the mind answers no judge's request


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
