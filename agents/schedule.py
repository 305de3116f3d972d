"""A day's schedule: the hourly blocks planned at wake-up, decomposed into actions and rewritten by reactions.

The schedule always covers the whole day (1,440 minutes) exactly: decomposing a block or rewriting the rest of a
window replaces slots by slots of the same total, and says so loudly (ValueError) when the arithmetic is off.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache

MINUTES_PER_DAY = 24 * 60
# Blocks this short are already actions: decomposing them would cost a call and change nothing.
SHORTEST_DECOMPOSED_BLOCK = 20

_SLEEP = re.compile(r"\b(sleep|sleeps|sleeping|slept|asleep|in bed|bedtime|go(?:es|ing)? to bed)\b", re.IGNORECASE)


def minute_of_day(now: datetime) -> int:
    """Minutes since midnight."""
    return now.hour * 60 + now.minute


@lru_cache(maxsize=4096)  # asked of every agent's action several times a step; activities recur
def is_sleep(activity: str) -> bool:
    """Whether an activity is sleep.

    The one rule for the agent (no model call while it lasts), the schedule parser (a night left out) and the offline
    mind (nobody talks to a sleeper).
    """
    return bool(_SLEEP.search(activity))


@dataclass(frozen=True)
class Slot:
    """One entry of the working schedule.

    Attributes:
        activity: What the agent does, e.g. "working at the cafe (brewing coffee)" once decomposed.
        minutes: How long it lasts.
        final: True when the slot is an action (decomposed, short, sleep, or inserted by a reaction);
            False when it still needs decomposing into 5-15 minute actions.
    """

    activity: str
    minutes: int
    final: bool


@dataclass
class DaySchedule:
    """The working schedule of one day, and the hourly plan it started from.

    Attributes:
        day: The date planned.
        hourly: The blocks as planned at wake-up, (activity, minutes), summing to 1,440.
        slots: The working schedule, summing to 1,440.
    """

    day: date
    hourly: list[tuple[str, int]]
    slots: list[Slot] = field(default_factory=list)

    @classmethod
    def from_blocks(cls, day: date, blocks: Sequence[tuple[str, int]]) -> "DaySchedule":
        """A schedule from hourly blocks; long waking blocks are left to be decomposed.

        Raises:
            ValueError: If the blocks do not sum to a whole day or a block is not positive.
        """
        blocks = [(activity, int(minutes)) for activity, minutes in blocks]
        _check_total(blocks, MINUTES_PER_DAY, "hourly schedule")
        slots = [
            Slot(activity, minutes, final=is_sleep(activity) or minutes < SHORTEST_DECOMPOSED_BLOCK)
            for activity, minutes in blocks
        ]
        return cls(day=day, hourly=blocks, slots=slots)

    def slot_at(self, minute: int) -> tuple[int, int, Slot]:
        """The slot running at a minute of the day: (index, start minute, slot)."""
        minute = min(max(minute, 0), MINUTES_PER_DAY - 1)
        start = 0
        for index, slot in enumerate(self.slots):
            if minute < start + slot.minutes:
                return index, start, slot
            start += slot.minutes
        raise AssertionError("a schedule always covers the whole day")

    def hourly_window(self, minute: int) -> tuple[int, int]:
        """The (start, end) minutes of the hourly block running at `minute`, the window a reaction rewrites."""
        start = 0
        for _, minutes in self.hourly:
            if minute < start + minutes:
                return start, start + minutes
            start += minutes
        return start, MINUTES_PER_DAY

    def decompose(self, index: int, pieces: Sequence[tuple[str, int]]) -> None:
        """Replace slot `index` by its actions, "<activity> (<piece>)", which must fill it exactly.

        Raises:
            ValueError: If the pieces do not sum to the slot's length.
        """
        slot = self.slots[index]
        pieces = [(text, int(minutes)) for text, minutes in pieces]
        _check_total(pieces, slot.minutes, f"decomposition of {slot.activity!r}")
        self.slots[index : index + 1] = [Slot(f"{slot.activity} ({text})", minutes, True) for text, minutes in pieces]

    def remaining(self, minute: int, end: int) -> list[tuple[str, int]]:
        """The planned activities from `minute` to `end`, cut at both ends."""
        return [(slot.activity, slot.minutes) for slot in self._cut(minute, end)]

    def _cut(self, minute: int, end: int) -> list[Slot]:
        result = []
        start = 0
        for slot in self.slots:
            lo, hi = max(start, minute), min(start + slot.minutes, end)
            if lo < hi:
                result.append(Slot(slot.activity, hi - lo, slot.final))
            start += slot.minutes
        return result

    def rewrite(self, minute: int, end: int, blocks: Sequence[tuple[str, int]]) -> None:
        """Replace what is planned from `minute` to `end` with `blocks` (a reaction: a talk, a wait).

        Raises:
            ValueError: If the blocks do not fill the window exactly.
        """
        blocks = [(activity, int(minutes)) for activity, minutes in blocks]
        _check_total(blocks, end - minute, "schedule rewrite")
        inserted = [Slot(activity, minutes, True) for activity, minutes in blocks]
        self.slots = self._cut(0, minute) + inserted + self._cut(end, MINUTES_PER_DAY)
        _check_total([(s.activity, s.minutes) for s in self.slots], MINUTES_PER_DAY, "schedule")

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "day": self.day.isoformat(),
            "hourly": [list(block) for block in self.hourly],
            "slots": [[slot.activity, slot.minutes, slot.final] for slot in self.slots],
        }

    @classmethod
    def from_state(cls, state: dict) -> "DaySchedule":
        """Rebuild a schedule saved by `get_state`."""
        return cls(
            day=date.fromisoformat(state["day"]),
            hourly=[(activity, minutes) for activity, minutes in state["hourly"]],
            slots=[Slot(activity, minutes, final) for activity, minutes, final in state["slots"]],
        )


def _check_total(blocks: Sequence[tuple[str, int]], expected: int, what: str) -> None:
    if any(minutes <= 0 for _, minutes in blocks):
        raise ValueError(f"{what}: every block needs a positive length, got {list(blocks)}")
    total = sum(minutes for _, minutes in blocks)
    if total != expected:
        raise ValueError(f"{what}: blocks sum to {total} minutes, expected {expected}")
