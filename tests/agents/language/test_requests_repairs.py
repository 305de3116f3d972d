"""Requests refuse bad fields when built, and their parsers repair the arithmetic models get slightly wrong."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.language import requests as asks
from agents.language.answers import PlaceOption, PlanBlock

from ..personas import DAY, NOON
from .request_cases import CAFE, ISABELLA

BAD_FIELDS = {
    "importance-none": (lambda: asks.ImportanceRequest(ISABELLA, ()), "1 to 40 memories"),
    "importance-41": (lambda: asks.ImportanceRequest(ISABELLA, ("a",) * 41), "got 41"),
    "importance-blank": (lambda: asks.ImportanceRequest(ISABELLA, (" ",)), "a memory is empty"),
    "day_plan-hour": (lambda: asks.DayPlanRequest(ISABELLA, DAY, 24), "wake_hour must be 0-23, got 24"),
    "hourly-hour": (lambda: asks.HourlyScheduleRequest(ISABELLA, DAY, -1, ("x",)), "wake_hour must be 0-23"),
    "hourly-no-plan": (lambda: asks.HourlyScheduleRequest(ISABELLA, DAY, 6, ()), "day_plan is empty"),
    "decompose-zero": (lambda: asks.DecomposeRequest(ISABELLA, "x", 0, 0), "positive multiple of 5, got 0"),
    "decompose-7": (lambda: asks.DecomposeRequest(ISABELLA, "x", 0, 7), "positive multiple of 5, got 7"),
    "decompose-start": (lambda: asks.DecomposeRequest(ISABELLA, "x", 1440, 5), "start_minute must be 0-1439"),
    "decompose-blank": (lambda: asks.DecomposeRequest(ISABELLA, " ", 0, 5), "activity is empty"),
    "action-none": (lambda: asks.ActionRequest(ISABELLA, (), "", "", (CAFE,)), "1 to 12 actions"),
    "action-blank": (lambda: asks.ActionRequest(ISABELLA, ("",), "", "", (CAFE,)), "an action is empty"),
    "action-no-place": (lambda: asks.ActionRequest(ISABELLA, ("x",), "", "", ()), "at least one place"),
    "reaction-no-name": (lambda: asks.ReactionRequest(ISABELLA, NOON, "a", "", "b"), "name is empty"),
    "line-no-partner": (lambda: asks.ConversationLineRequest(ISABELLA, "", "cafe", NOON, ()), "name is empty"),
    "line-max": (lambda: asks.ConversationLineRequest(ISABELLA, "Maria", "cafe", NOON, (), (), 0), "max_lines"),
    "summary-empty": (lambda: asks.ConversationSummaryRequest("A B", "C D", ()), "no conversation"),
    "summary-same": (lambda: asks.ConversationSummaryRequest("A B", "A B", (("A B", "hi"),)), "two different names"),
    "rewrite-too-long": (
        lambda: asks.ScheduleRewriteRequest(ISABELLA, 0, "talking", 90, (PlanBlock("work", 60),)),
        "inserted_minutes \\(90\\) must be positive and fit",
    ),
    "rewrite-blank": (lambda: asks.ScheduleRewriteRequest(ISABELLA, 0, "", 5, (PlanBlock("w", 60),)), "is empty"),
    "questions-none": (lambda: asks.ReflectionQuestionsRequest(ISABELLA, ()), "needs statements"),
    "insights-none": (lambda: asks.InsightsRequest(ISABELLA, (("why?", (1,)),), ()), "at least one memory"),
    "insights-n": (lambda: asks.InsightsRequest(ISABELLA, (("why?", (1,)),), ((1, "x"),), 0), "n >= 1"),
    "insights-unlisted": (lambda: asks.InsightsRequest(ISABELLA, (("why?", (2,)),), ((1, "x"),)), "all of them listed"),
    "interview-blank": (lambda: asks.InterviewRequest(ISABELLA, NOON, " ", ()), "question is empty"),
    "judge-blank": (lambda: asks.JudgeRequest("q", "c", "", "b"), "must be non-empty"),
}


@pytest.mark.parametrize("case", sorted(BAD_FIELDS), ids=sorted(BAD_FIELDS))
def test_bad_fields_are_refused_when_the_request_is_built(case):
    build, message = BAD_FIELDS[case]
    with pytest.raises(ValueError, match=message):
        build()


def _answer(key, blocks):
    name = "action" if key == "actions" else "activity"
    return json.dumps({key: [{name: activity, "minutes": minutes} for activity, minutes in blocks]})


@settings(max_examples=200, deadline=None)
@given(
    total=st.integers(1, 48).map(lambda n: 5 * n),
    blocks=st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(1, 120)), min_size=1, max_size=9),
)
def test_decomposition_always_fills_its_block_with_5_to_15_minute_actions(total, blocks):
    request = asks.DecomposeRequest(ISABELLA, "working", 480, total)
    pieces = request.parse(_answer("actions", blocks))
    assert sum(piece.minutes for piece in pieces) == total
    assert all(5 <= piece.minutes <= 15 and piece.minutes % 5 == 0 for piece in pieces)


@settings(max_examples=200, deadline=None)
@given(
    inserted=st.integers(1, 60),
    remaining=st.lists(st.integers(1, 90), min_size=1, max_size=4),
    blocks=st.lists(st.tuples(st.sampled_from(["work", "lunch"]), st.integers(1, 200)), min_size=1, max_size=5),
)
def test_rewrite_starts_with_the_inserted_activity_and_keeps_the_window(inserted, remaining, blocks):
    window = tuple(PlanBlock(f"plan {index}", minutes) for index, minutes in enumerate(remaining))
    if inserted > sum(remaining):
        return
    request = asks.ScheduleRewriteRequest(ISABELLA, 600, "talking with Maria Lopez", inserted, window)
    rewritten = request.parse(_answer("schedule", blocks))
    assert rewritten[0] == PlanBlock("talking with Maria Lopez", inserted)
    assert sum(block.minutes for block in rewritten) == sum(remaining)


@pytest.mark.parametrize(
    ("blocks", "expected_first"),
    [
        ([("waking up", 60), ("working at Hobbs Cafe", 720), ("relaxing", 300)], PlanBlock("sleeping", 360)),
        ([("Sleeping", 300), ("working", 1140)], PlanBlock("Sleeping", 300)),
        ([("asleep in bed", 361), ("working", 1000)], PlanBlock("asleep in bed", 360)),
    ],
    ids=["night-forgotten", "night-given", "rounded-to-5"],
)
def test_hourly_schedule_starts_asleep_and_fills_the_day(blocks, expected_first):
    request = asks.HourlyScheduleRequest(ISABELLA, DAY, 6, ("from 8:00 am to 8:00 pm, working at Hobbs Cafe",))
    schedule = request.parse(_answer("schedule", blocks))
    assert schedule[0] == expected_first
    assert sum(block.minutes for block in schedule) == 1440
    assert all(block.minutes % 5 == 0 for block in schedule)


def test_an_action_at_a_place_without_objects_needs_no_object():
    square = asks.ActionRequest(ISABELLA, ("walking",), "", "", (PlaceOption("Town Square", "square", ()),))
    (choice,) = square.parse('{"actions": [{"sector": "town square", "arena": "Square", "game_object": "bench"}]}')
    assert (choice.sector, choice.arena, choice.game_object) == ("Town Square", "square", "")
