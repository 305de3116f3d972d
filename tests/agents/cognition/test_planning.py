"""Planning: a reaction rewrites the rest of its hour, and a recurring activity reuses its decomposition."""

from agents import DaySchedule
from agents.cognition.planning import decompose_slot, rewrite_schedule
from agents.language.requests import DecomposeRequest
from agents.records import status_key
from agents.schedule import MINUTES_PER_DAY
from tests.agents.cognition.scripted import ScriptedMind, run
from tests.agents.personas import DAY, identity

KLAUS = identity("Klaus Mueller")
BLOCKS = [("sleeping", 420), ("having breakfast", 60), ("writing his paper", 180), ("sleeping", 780)]


def rewrite_answer(request):
    rest = sum(block.minutes for block in request.remaining) - request.inserted_minutes
    return {"schedule": [{"activity": request.inserted, "minutes": request.inserted_minutes}]
            + ([{"activity": "writing his paper", "minutes": rest}] if rest else [])}  # fmt: skip


def test_a_talk_is_fitted_in_and_the_hour_rewritten_around_it():
    schedule = DaySchedule.from_blocks(DAY, BLOCKS)
    mind = ScriptedMind({"schedule_rewrite": rewrite_answer})
    minute = 8 * 60 + 30  # in the middle of "writing his paper" (8:00-11:00)
    assert run(rewrite_schedule(mind.ask, KLAUS, schedule, "talking with Maria Lopez", 10, minute))
    _, start, slot = schedule.slot_at(minute)
    assert (start, slot.activity, slot.minutes) == (minute, "talking with Maria Lopez", 10)
    assert sum(slot.minutes for slot in schedule.slots) == MINUTES_PER_DAY
    assert schedule.slot_at(minute + 10)[2].activity == "writing his paper"
    assert schedule.slot_at(7 * 60 + 30)[2].activity == "having breakfast"  # before the talk: untouched


def test_no_room_left_in_the_day_asks_nothing():
    schedule = DaySchedule.from_blocks(DAY, BLOCKS)
    mind = ScriptedMind({})
    assert not run(rewrite_schedule(mind.ask, KLAUS, schedule, "waiting", 0, 8 * 60))
    assert mind.requests == []


def test_a_recurring_activity_reuses_its_decomposition_while_the_status_stays():
    known = {}
    mind = ScriptedMind({"decompose": lambda r: {"actions": [{"action": "typing", "minutes": 15}] * (r.minutes // 15)}})
    for _ in range(2):  # the same block twice under the same status
        schedule = DaySchedule.from_blocks(DAY, BLOCKS)
        run(decompose_slot(mind.ask, KLAUS, schedule, 8 * 60, known))
        assert schedule.slot_at(8 * 60)[2].activity == "writing his paper (typing)"
    assert len(mind.asked("decompose")) == 1 and list(known) == [f"{status_key(KLAUS.currently)}|writing his paper|180"]
    busier = KLAUS.with_currently("Klaus Mueller is finishing his paper and preparing a talk on it for Friday.")
    run(decompose_slot(mind.ask, busier, DaySchedule.from_blocks(DAY, BLOCKS), 8 * 60, known))
    assert len(mind.asked("decompose")) == 2  # a new status (a new day's plans) asks again, with it in the prompt


def test_a_long_block_may_be_answered_in_full():
    """A 12-hour block may need 144 actions of 5 minutes: the answer's token allowance grows with the block."""
    mind = ScriptedMind({"decompose": lambda r: {"actions": [{"action": "serving", "minutes": 5}] * (r.minutes // 5)}})
    schedule = DaySchedule.from_blocks(DAY, [("sleeping", 480), ("working at the shop", 720), ("sleeping", 240)])
    run(decompose_slot(mind.ask, KLAUS, schedule, 9 * 60, {}))
    (short,) = [DecomposeRequest(KLAUS, "working", 480, 60)]
    (asked,) = mind.asked("decompose")
    assert asked.max_tokens >= 144 * 25 > short.max_tokens
