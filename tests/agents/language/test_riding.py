"""Importance riding along on another request: the prompt, the schema, the parse, the offline answer."""

import json
from dataclasses import replace

import pytest

from agents.language.offline import offline_answer
from agents.language.offline.salience import importance_of
from agents.language.requests import ConversationLineRequest, ImportanceRequest, ScoredRequest
from agents.language.requests.scoring import MOST_MEMORIES
from testing import answer_for_messages

from ..personas import NOON, identity
from .request_cases import PARTY, REQUESTS

KLAUS = identity("Klaus Mueller")
MEMORIES = ("the bed is idle", PARTY, "Maria Lopez is studying")
LINE = ConversationLineRequest(
    KLAUS, "Maria Lopez", "Hobbs Cafe", NOON, ("Maria Lopez is a student",), (), relationship="a dormmate I like"
)


def scored(inner=LINE, memories=MEMORIES):
    return ScoredRequest(inner=inner, name=KLAUS.name, memories=memories)


def test_the_ride_keeps_the_inner_prompt_whole_and_asks_for_ratings_last():
    system, user = scored().messages()
    inner_system, inner_user = LINE.messages()
    assert system == inner_system  # the persona first, as in every request of the agent: the cached prefix
    assert user["content"].startswith(inner_user["content"])
    rider = user["content"][len(inner_user["content"]) :]
    assert "these 3 new memories is to Klaus Mueller" in rider and json.dumps(PARTY) in rider and '"scores"' in rider


def test_it_counts_and_routes_as_the_inner_request():
    request = scored()
    assert request.kind == "conversation_line" and request.temperature == LINE.temperature
    assert request.max_tokens > LINE.max_tokens


def test_the_schema_is_the_inner_one_with_ratings_the_same_for_every_ride():
    schema = scored().answer_schema()
    assert set(schema["required"]) == {"relationship", "line", "end", "scores"}
    # A first line (which also says what Klaus thinks of her) and a ride of other memories: the same schema.
    assert scored(replace(LINE, relationship="")).answer_schema() == schema
    assert scored(memories=("Maria is here",)).answer_schema() == schema
    scores = schema["properties"]["scores"]
    assert (scores["minItems"], scores["maxItems"]) == (1, MOST_MEMORIES)
    assert (scores["items"]["minimum"], scores["items"]["maximum"]) == (1, 10)


def test_the_answer_parses_into_the_inner_answer_and_the_ratings():
    answer = scored().parse('{"line": "Hi Maria!", "end": false, "scores": [1, 12, 3]}')
    assert answer.answer == LINE.parse('{"line": "Hi Maria!", "end": false}')
    assert answer.scores == (1, 10, 3)


@pytest.mark.parametrize(
    "text", ['{"line": "Hi Maria!", "end": false}', '{"line": "Hi Maria!", "end": false, "scores": [4]}'],
    ids=["no-ratings", "wrong-count"],
)  # fmt: skip
def test_missing_ratings_keep_the_inner_answer_and_leave_the_memories_queued(text):
    answer = scored().parse(text)
    assert answer.answer.line == "Hi Maria!" and answer.scores is None


def test_the_fallback_is_the_inner_fallback_without_ratings():
    assert scored().fallback().answer == LINE.fallback() and scored().fallback().scores is None


def test_the_offline_mind_answers_the_inner_request_and_rates_as_it_would_alone():
    request = scored()
    answer = json.loads(offline_answer(request, seed=3))
    persona = KLAUS.describe()  # rated as Klaus would rate them, close to what his persona names
    assert answer["scores"] == [importance_of(memory, persona) for memory in MEMORIES]
    assert request.parse(json.dumps(answer)).answer == LINE.parse(offline_answer(LINE, seed=3))
    alone = json.loads(offline_answer(ImportanceRequest(KLAUS, MEMORIES), seed=3))
    assert answer["scores"] == alone["scores"]


@pytest.mark.parametrize("kind", ["action", "decompose", "reaction", "conversation_line", "schedule_rewrite"])
def test_the_loopback_server_rates_on_the_side_of_every_carrier(kind):
    request = scored(REQUESTS[kind], MEMORIES[:2])
    assert request.parse(answer_for_messages(request.messages())).scores == (5, 5)


def test_importance_and_requests_without_a_schema_cannot_carry():
    with pytest.raises(ValueError, match="cannot carry"):
        scored(ImportanceRequest(KLAUS, MEMORIES))
    interview = REQUESTS["interview"]

    class Unschemed(type(interview)):
        answer_model = None

    with pytest.raises(ValueError, match="cannot carry"):
        scored(Unschemed(interview.identity, interview.now, interview.question, interview.memories))
