"""The offline mind plans days from the personas' own words and sends actions to fitting places."""

import dataclasses
from datetime import date

import pytest

from agents.language.answers import PlaceOption
from agents.language.offline import offline_answer
from agents.language.requests import (
    ActionRequest,
    DayPlanRequest,
    DecomposeRequest,
    HourlyScheduleRequest,
    WakeUpRequest,
)

from ..personas import DATA, DAY, identity

NAMES = sorted(path.name for path in (DATA / "base_the_ville_n25" / "personas").iterdir() if path.is_dir())
ISABELLA = identity("Isabella Rodriguez")
VALENTINES = date(2023, 2, 14)


def _ask(request, seed=0):
    return request.parse(offline_answer(request, seed))


def _day(person, today=DAY):
    wake = _ask(WakeUpRequest(person))
    plan = _ask(DayPlanRequest(person, today, wake))
    return wake, plan, _ask(HourlyScheduleRequest(person, today, wake, plan))


def _doing_at(blocks, minute):
    start = 0
    for block in blocks:
        if start <= minute < start + block.minutes:
            return block.activity
        start += block.minutes
    raise AssertionError(f"minute {minute} is past the schedule")


@pytest.mark.parametrize(
    ("lifestyle", "hour"),
    [
        ("goes to bed around 11pm, awakes up around 6am.", 6),
        ("goes to bed around 11pm, awakes up around 7amam, eats dinner around 5pm.", 7),
        ("goes to bed around 2am, awakes up around 10am", 10),
        ("goes to bed around 8pm, awakes up around 4am", 4),
        ("works nights and wakes up around 17:30pm", 17),
        ("wakes up around midnight", 0),
        ("likes the night", 7),
    ],
    ids=["6am", "7amam", "10am", "4am", "17:30pm", "midnight", "not-given"],
)
def test_wake_hour_comes_from_the_lifestyle(lifestyle, hour):
    assert _ask(WakeUpRequest(dataclasses.replace(ISABELLA, lifestyle=lifestyle))) == hour


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_every_persona_gets_a_whole_day_asleep_until_waking(name):
    wake, plan, schedule = _day(identity(name))
    assert 5 <= len(plan) <= 8
    assert sum(block.minutes for block in schedule) == 1440
    assert all(block.minutes % 5 == 0 for block in schedule)
    assert _doing_at(schedule, wake * 60 - 5) == "sleeping" and _doing_at(schedule, wake * 60) != "sleeping"
    assert sum(block.minutes for block in schedule if block.activity == "sleeping") >= 6 * 60


def test_isabella_wakes_at_six_and_runs_the_cafe_from_eight_to_eight():
    wake, plan, schedule = _day(ISABELLA)
    assert wake == 6
    assert "from 8:00 am to 12:00 pm, working at Hobbs Cafe" in plan
    for hour in (8, 10, 14, 19):
        assert _doing_at(schedule, hour * 60) == "working at Hobbs Cafe"
    assert _doing_at(schedule, 12 * 60) == "having lunch"
    assert _doing_at(schedule, 20 * 60) == "having dinner"  # no dinner hour given: after closing
    assert _doing_at(schedule, 23 * 60 + 30) == "sleeping"


def test_an_event_in_the_status_enters_the_plan_on_its_day_at_its_own_time():
    """The status's dated sentence is read as any dated plan: Isabella's own event at its time (5 pm, an hour when no
    end is given) and place, never on another day; the same sentence heard by Maria is her joining Isabella there,
    never hosting."""
    _, plan, schedule = _day(ISABELLA, VALENTINES)
    assert "from 5:00 pm to 6:00 pm, having a Valentine's Day party at Hobbs Cafe" in plan
    assert "party" in _doing_at(schedule, 17 * 60 + 30)
    assert not any("party" in item for item in _day(ISABELLA, DAY)[1])
    heard = "Isabella Rodriguez is planning on having a Valentine's Day party at Hobbs Cafe on February 14th at 5pm."
    maria = dataclasses.replace(identity("Maria Lopez"), currently=f"{identity('Maria Lopez').currently} {heard}")
    _, plan, _ = _day(maria, VALENTINES)
    joining = "joining Isabella Rodriguez, who is having a Valentine's Day party at Hobbs Cafe"
    assert any(item.startswith("from 5:00 pm to ") and item.endswith(joining) for item in plan)
    assert not any("hosting" in item or item.endswith("having a Valentine's Day party") for item in plan)


def test_an_event_heard_with_a_later_clause_keeps_its_place_in_the_plan():
    """A second clause with a subject of its own ("and Carmen is asking ...") says more than what happens: the
    activity ends at the place it names, which sends the persona there."""
    heard = (
        "Lately: Carmen Ortiz is excited to be hosting a very long afternoon of reading picture books aloud to "
        "children at Johnson Park on February 14th from 3pm and Carmen is asking friends to bring two books."
    )
    tom = dataclasses.replace(identity("Tom Moreno"), currently=f"{identity('Tom Moreno').currently} {heard}")
    _, plan, _ = _day(tom, VALENTINES)
    joining = [item for item in plan if "joining Carmen Ortiz" in item]
    assert joining and joining[0].startswith("from 3:00 pm to ") and joining[0].endswith(" at Johnson Park")
    assert not any("bring two books" in item for item in plan)


@pytest.mark.parametrize(
    ("name", "hour", "expected"),
    [
        ("Arthur Burton", 18, "working at The Rose and Crown Pub"),
        ("Ayesha Khan", 11, "taking classes at Oak Hill College"),
        ("Mei Lin", 11, "teaching at Oak Hill"),
        ("Latoya Williams", 17.5, "having dinner"),
        ("Hailey Johnson", 1, "staying up late at home"),
        ("Adam Smith", 21, "sleeping"),
    ],
    ids=["pub-from-5pm", "classes-10am", "teaching", "dinner-17:30pm", "bed-at-2am", "bed-at-8pm"],
)
def test_schedules_follow_daily_requirements_and_habits(name, hour, expected):
    assert _doing_at(_day(identity(name))[2], int(hour * 60)) == expected


@pytest.mark.parametrize(
    ("activity", "minutes", "steps"),
    [
        ("working at Hobbs Cafe", 60, {"serving customers", "preparing orders", "tidying the counter", "restocking"}),
        ("having breakfast", 30, {"preparing food", "eating", "cleaning up"}),
        ("waking up and getting ready", 5, {"brushing teeth", "taking a shower", "getting dressed"}),
        ("staring at the sea", 95, {"getting on with it"}),
    ],
    ids=["cafe-60", "breakfast-30", "routine-5", "unknown-95"],
)
def test_decomposition_uses_the_activity_steps_and_exact_arithmetic(activity, minutes, steps):
    pieces = _ask(DecomposeRequest(ISABELLA, activity, 480, minutes))
    assert sum(piece.minutes for piece in pieces) == minutes
    assert all(5 <= piece.minutes <= 15 for piece in pieces)
    assert {piece.activity for piece in pieces} <= steps


HOME = PlaceOption("Isabella Rodriguez's apartment", "main room", ("bed", "desk", "refrigerator"))
BATH = PlaceOption("Isabella Rodriguez's apartment", "bathroom", ("shower", "bathroom sink"))
CAFE = PlaceOption("Hobbs Cafe", "cafe", ("behind the cafe counter", "piano", "cafe customer seating"))
LIBRARY = PlaceOption("Oak Hill College", "library", ("library table", "bookshelf"))
PLACES = (CAFE, LIBRARY, HOME, BATH)


@pytest.mark.parametrize(
    ("action", "place", "emoji"),
    [
        ("sleeping", ("Isabella Rodriguez's apartment", "main room", "bed"), "💤"),
        ("working at Hobbs Cafe (brewing coffee)", ("Hobbs Cafe", "cafe", "behind the cafe counter"), "☕"),
        ("studying for the exam", ("Oak Hill College", "library", "library table"), "📚"),
        ("taking a shower", ("Isabella Rodriguez's apartment", "bathroom", "shower"), "🚿"),
        ("playing the piano", ("Hobbs Cafe", "cafe", "piano"), "🎵"),
        ("having lunch (eating)", ("Isabella Rodriguez's apartment", "main room", "refrigerator"), "🍳"),
    ],
    ids=["sleep-bed", "cafe-counter", "study-library", "shower", "piano", "lunch-at-home-refrigerator"],
)
def test_actions_go_to_the_place_their_words_name(action, place, emoji):
    request = ActionRequest(ISABELLA, (action,), "Hobbs Cafe", "cafe", PLACES)
    (choice,) = _ask(request)
    assert (choice.sector, choice.arena, choice.game_object) == place
    assert choice.emoji == emoji
    assert choice.subject == ISABELLA.name and ISABELLA.name in choice.object_state


def test_sleeping_rates_lower_than_hosting_a_party():
    request = ActionRequest(ISABELLA, ("sleeping", "hosting a Valentine's Day party"), "", "", PLACES)
    sleep, party = _ask(request)
    assert sleep.importance < party.importance


def test_a_step_whose_words_match_no_object_stays_where_its_activity_went():
    """A painter with no easel: the step that finds something (sketching: a desk) takes the others with it."""
    home = PlaceOption("Isabella Rodriguez's apartment", "main room", ("closet", "bed", "desk", "kitchen sink"))
    steps = ("painting (working on a piece)", "painting (sketching ideas)", "painting (cleaning the brushes)")
    request = ActionRequest(ISABELLA, steps, home.sector, home.arena, (home, BATH))
    choices = _ask(request)
    assert [choice.game_object for choice in choices] == ["desk", "desk", "desk"]
    assert all(
        choice.object_state.endswith(step.split("(")[1].rstrip(")"))
        for choice, step in zip(choices, steps, strict=True)
    )
    alone = _ask(ActionRequest(ISABELLA, steps[:1], home.sector, home.arena, (home, BATH)))
    assert len(alone) == 1  # with no step that matches, a place is still chosen
