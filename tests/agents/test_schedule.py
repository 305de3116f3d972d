from datetime import date

import pytest

from agents.schedule import MINUTES_PER_DAY, DaySchedule, is_sleep

DAY = date(2023, 2, 13)
ISABELLA = [("sleeping", 360), ("morning routine", 60), ("opening the cafe", 60), ("working at the cafe", 660),
            ("closing the cafe", 60), ("relaxing at home", 180), ("sleeping", 60)]  # fmt: skip


def total(schedule):
    return sum(slot.minutes for slot in schedule.slots)


def test_blocks_must_fill_the_day():
    with pytest.raises(ValueError, match="1430 minutes, expected 1440"):
        DaySchedule.from_blocks(DAY, [("sleeping", 1430)])


@pytest.mark.parametrize(
    ("minute", "expected"),
    [
        (0, (0, 0, "sleeping")),
        (359, (0, 0, "sleeping")),
        (360, (1, 360, "morning routine")),
        (1439, (6, 1380, "sleeping")),
    ],
    ids=["midnight", "last-minute-asleep", "wake-up", "last-minute-of-day"],
)
def test_slot_at(minute, expected):
    schedule = DaySchedule.from_blocks(DAY, ISABELLA)
    index, start, slot = schedule.slot_at(minute)
    assert (index, start, slot.activity) == expected


def test_sleep_is_final_and_waking_blocks_need_decomposing():
    schedule = DaySchedule.from_blocks(DAY, ISABELLA)
    assert [slot.final for slot in schedule.slots] == [True, False, False, False, False, False, True]


def test_decomposition_fills_the_block_exactly():
    schedule = DaySchedule.from_blocks(DAY, ISABELLA)
    schedule.decompose(1, [("brushing teeth", 10), ("showering", 15), ("getting dressed", 10), ("breakfast", 25)])
    assert total(schedule) == MINUTES_PER_DAY
    assert schedule.slot_at(375)[2].activity == "morning routine (showering)"
    with pytest.raises(ValueError, match="sum to 50 minutes, expected 60"):
        schedule.decompose(5, [("unlocking", 20), ("setting up", 30)])


def test_rewrite_keeps_the_day_whole_and_inserts_the_reaction():
    schedule = DaySchedule.from_blocks(DAY, ISABELLA)
    start, end = schedule.hourly_window(500)
    assert (start, end) == (480, 1140)
    rest = schedule.remaining(500, end)
    assert sum(minutes for _, minutes in rest) == 640
    schedule.rewrite(500, end, [("chatting with Klaus Mueller", 10), ("working at the cafe", 630)])
    assert total(schedule) == MINUTES_PER_DAY
    assert schedule.slot_at(505)[2].activity == "chatting with Klaus Mueller"
    assert schedule.slot_at(499)[2].activity == "working at the cafe"
    assert schedule.slot_at(1140)[2].activity == "closing the cafe"
    with pytest.raises(ValueError, match="expected 640"):
        schedule.rewrite(500, end, [("chatting", 10)])


def test_state_round_trip():
    schedule = DaySchedule.from_blocks(DAY, ISABELLA)
    schedule.decompose(1, [("brushing teeth", 30), ("breakfast", 30)])
    assert DaySchedule.from_state(schedule.get_state()) == schedule


@pytest.mark.parametrize(
    ("activity", "sleeping"),
    [("sleeping", True), ("going to bed", True), ("asleep", True), ("bedside reading", False), ("eating", False)],
    ids=["sleeping", "going-to-bed", "asleep", "bedside", "eating"],
)
def test_is_sleep(activity, sleeping):
    assert is_sleep(activity) is sleeping
