"""Each request type: a good model answer parses to the expected value, a wrong one is refused, fallbacks are valid."""

import json
from dataclasses import replace

import pytest

from agents.language.answers import (
    ActionChoice,
    ConversationSummary,
    ConversationTurn,
    DaySummary,
    Insight,
    PlanBlock,
    Reaction,
    Verdict,
)
from agents.language.request import AnswerError

from .request_cases import CAFE, CAFE_CHOICE, HOME, ISABELLA, PARTY, REQUESTS, WRONG

BED_CHOICE = {"sector": HOME.sector, "arena": HOME.arena, "game_object": "bed", "emoji": "💤", "importance": 1}
SERVING = ActionChoice(
    action="working at Hobbs Cafe (serving customers)",
    sector="Hobbs Cafe",
    arena="cafe",
    game_object="behind the cafe counter",
    emoji="☕",
    subject="Isabella Rodriguez",
    predicate="serve",
    object="customers",
    object_state="being used to serve customers",
    importance=3,
)
# Left out of the answer: predicate, target, state; the parser fills them from the persona and the object.
SLEEPING = ActionChoice(
    action="sleeping",
    sector=HOME.sector,
    arena=HOME.arena,
    game_object="bed",
    emoji="💤",
    subject="Isabella Rodriguez",
    predicate="is",
    object="bed",
    object_state="being used by Isabella Rodriguez",
    importance=1,
)
SUMMARY = {"summary": "the party", "takeaways": {"isabella rodriguez": "Maria is coming", "Maria": PARTY}}
GOOD = {
    "importance": ('Sure! {"scores": [1, 8]}', (1, 8)),
    "wake_up": ('```json\n{"hour": 6}\n```', 6),
    "day_plan": (json.dumps({"plan": [f"item {n}" for n in range(6)]}), tuple(f"item {n}" for n in range(6))),
    "hourly_schedule": (
        json.dumps({"schedule": [{"activity": "sleeping", "minutes": 360}, {"activity": "working", "minutes": 1080}]}),
        (PlanBlock("sleeping", 360), PlanBlock("working", 1080)),
    ),
    "decompose": (
        json.dumps({"actions": [{"action": "opening up", "minutes": 15}] * 4}),
        (PlanBlock("opening up", 15),) * 4,
    ),
    "action": (json.dumps({"actions": [CAFE_CHOICE, BED_CHOICE]}), (SERVING, SLEEPING)),
    "reaction": ('{"choice": "wait", "reason": "she is busy"}', Reaction("wait", "she is busy")),
    "conversation_line": (
        '{"line": "Isabella Rodriguez: Come to my party!", "end": false}',
        ConversationTurn("Come to my party!", False),
    ),
    "conversation_summary": (
        json.dumps(SUMMARY),
        ConversationSummary("the party", (("Isabella Rodriguez", "Maria is coming"), ("Maria Lopez", PARTY))),
    ),
    "schedule_rewrite": (
        json.dumps(
            {
                "schedule": [
                    {"activity": "talking with Maria Lopez", "minutes": 5},
                    {"activity": "working", "minutes": 55},
                ]
            }
        ),
        (PlanBlock("talking with Maria Lopez", 5), PlanBlock("working", 55)),
    ),
    "reflection_questions": (
        '{"questions": ["Who is Maria?", "Why a party?", "What next?", "extra"]}',
        ("Who is Maria?", "Why a party?", "What next?"),
    ),
    "insights": (
        '{"insights": [{"insight": "Maria studies a lot", "evidence": [3, "7"]}]}',
        (Insight("Maria studies a lot", (3, 7)),),
    ),
    "day_summary": ('{"summary": "A busy day.", "currently": "planning"}', DaySummary("A busy day.", "planning")),
    "interview": ('{"answer": " Yes, on the 14th. "}', "Yes, on the 14th."),
    "judge": ('{"choice": "B", "reason": "specific"}', Verdict("b", "specific")),
}
IDS = sorted(GOOD)


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_a_good_answer_parses_to_the_expected_value(kind):
    text, expected = GOOD[kind]
    assert REQUESTS[kind].parse(text) == expected


def test_a_wait_with_no_shared_place_carries_on_and_a_talk_keeps_its_relationship():
    """Waiting is offered only over a place both are headed for (the original's gate); a model that waits anyway is
    read as carrying on. A talk brings what the speaker feels and knows about the other, for the talk's lines."""
    request = replace(REQUESTS["reaction"], shared_place="")
    assert request.parse('{"choice": "wait", "reason": "she is busy"}') == Reaction("continue", "she is busy")
    assert request.answer_schema() == REQUESTS["reaction"].answer_schema()  # the choice offered is in the prompt
    talk = '{"choice": "talk", "reason": "hi", "relationship": "my oldest friend", "line": "Hi Maria!"}'
    assert request.parse(talk) == Reaction("talk", "hi", "Hi Maria!", "my oldest friend")


@pytest.mark.parametrize(
    ("kind", "text", "message"), WRONG, ids=[f"{kind}-{message[:20]}" for kind, _, message in WRONG]
)
def test_a_wrong_answer_is_refused_with_a_precise_message(kind, text, message):
    with pytest.raises(AnswerError, match=message):
        REQUESTS[kind].parse(text)


def _total(blocks):
    return sum(block.minutes for block in blocks)


def _places_are_known(choices):
    return all(
        any((c.sector, c.arena) == (p.sector, p.arena) and c.game_object in p.objects for p in (CAFE, HOME))
        for c in choices
    )


FALLBACK_IS_VALID = {
    "importance": lambda value: value == (4, 4),
    "wake_up": lambda value: 0 <= value <= 23,
    "day_plan": lambda value: 5 <= len(value) <= 8 and all(item.startswith("from ") for item in value),
    "hourly_schedule": lambda value: _total(value) == 1440 and value[0] == PlanBlock("sleeping", 360),
    "decompose": lambda value: _total(value) == 60 and all(5 <= block.minutes <= 15 for block in value),
    "action": lambda value: _places_are_known(value) and {c.sector for c in value} == {"Hobbs Cafe"},
    "reaction": lambda value: value.choice == "continue",
    "conversation_line": lambda value: value.end and "Maria" in value.line,
    "conversation_summary": lambda value: PARTY in dict(value.takeaways)["Maria Lopez"],
    "schedule_rewrite": lambda value: value[0].activity == "talking with Maria Lopez" and _total(value) == 60,
    "reflection_questions": lambda value: len(value) == 3 and all(value),
    "insights": lambda value: value == (),  # a failed reflection invents nothing
    "day_summary": lambda value: value.currently == ISABELLA.currently,
    "interview": lambda value: bool(value.strip()),
    "judge": lambda value: value.choice in ("a", "b"),
}


@pytest.mark.parametrize("kind", IDS, ids=IDS)
def test_the_fallback_is_valid(kind):
    assert FALLBACK_IS_VALID[kind](REQUESTS[kind].fallback())
