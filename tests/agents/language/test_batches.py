"""The evaluation's batched requests: each item shown and answered as it would be alone, the shared parts sent once."""

import json
from datetime import datetime

import pytest

from agents.language import AnswerError, FactChecksRequest, InterviewsRequest, RanksRequest, offline_answer
from agents.language.requests.batches import ITEMS_PER_REQUEST

from .request_cases import ISABELLA

NOW = datetime(2023, 2, 14, 9, 0)
PARTY = "Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe on February 14th, 5 to 7 pm"
SHOP = "Isabella Rodriguez is opening Hobbs Cafe at 8 am"
KLAUS = "conversation with Klaus Mueller: about his research paper on gentrification"
ASKED = [
    ("Are you planning anything for Valentine's Day?", [PARTY, SHOP]),
    ("Who is Klaus Mueller?", [KLAUS, PARTY]),
    ("What do you do in the morning?", []),
]


def test_a_batch_of_questions_sends_each_memory_once_and_shows_each_question_its_own():
    batch = InterviewsRequest.of(ISABELLA, NOW, ASKED)
    assert batch.memories == (PARTY, SHOP, KLAUS)
    assert [item.memories for item in batch.items()] == [(PARTY, SHOP), (KLAUS, PARTY), ()]
    prompt = batch.messages()[1]["content"]
    assert prompt.count("Valentine's Day party at Hobbs Cafe") == 1
    assert '1. "Are you planning anything for Valentine\'s Day?" (memories: 1, 2)' in prompt
    assert '2. "Who is Klaus Mueller?" (memories: 3, 1)' in prompt
    assert '3. "What do you do in the morning?" (memories: none)' in prompt


@pytest.mark.parametrize(
    "batch",
    [
        InterviewsRequest.of(ISABELLA, NOW, ASKED),
        RanksRequest(
            "Isabella runs Hobbs Cafe.", (("What's new?", (PARTY, "Nothing.")), ("Who is Klaus?", (KLAUS, KLAUS)))
        ),
        FactChecksRequest("Isabella Rodriguez", (("What's new?", PARTY, PARTY), ("Who is Klaus?", "No idea.", KLAUS))),
    ],
    ids=["interviews", "ranks", "fact_checks"],
)
def test_the_offline_mind_answers_a_batch_item_by_item_as_if_each_were_asked_alone(batch):
    alone = tuple(item.parse(offline_answer(item, seed=3)) for item in batch.items())
    assert batch.parse(offline_answer(batch, seed=3)) == alone


def test_a_batch_answer_must_hold_one_valid_answer_per_item_else_it_is_repaired():
    batch = RanksRequest("ctx", (("q1", ("a", "b")), ("q2", ("c", "d"))))
    one = {"reason": "", "ranking": [["A"], ["B"]]}
    assert batch.parse(json.dumps({"answers": [one, {"ranking": ["B", "A"]}]})) == (((0,), (1,)), ((1,), (0,)))
    with pytest.raises(AnswerError, match="exactly 2"):
        batch.parse(json.dumps({"answers": [one]}))
    with pytest.raises(AnswerError, match=r"answers\.2: ranking must list each of A, B"):
        batch.parse(json.dumps({"answers": [one, {"ranking": [["A"]]}]}))
    assert batch.fallback() == (((0, 1),), ((0, 1),))  # no judgement: each a draw, as alone


def test_a_batch_kind_keeps_one_schema_whatever_its_items():
    small = InterviewsRequest.of(ISABELLA, NOW, ASKED[:1])
    large = InterviewsRequest.of(ISABELLA, NOW, ASKED + ASKED[:2])
    assert small.answer_schema() == large.answer_schema()
    assert large.answer_schema()["properties"]["answers"]["maxItems"] == ITEMS_PER_REQUEST
    few = RanksRequest("ctx", (("q1", ("a", "b", "c")),))
    many = RanksRequest("other", (("q2", ("d", "e", "f")), ("q3", ("g", "h", "i"))))
    assert few.answer_schema() == many.answer_schema()
    with pytest.raises(ValueError, match=f"1 to {ITEMS_PER_REQUEST}"):
        InterviewsRequest.of(ISABELLA, NOW, ASKED * 2)
