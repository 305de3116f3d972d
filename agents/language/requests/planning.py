"""Planning requests (the paper's section 4.3): wake-up hour, day plan, hourly schedule, decomposition, rewrite."""

from dataclasses import dataclass
from datetime import date
from itertools import accumulate

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import PlanBlock
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import clock, day_text, fit_blocks, numbered, parse_json, persona_fields
from agents.language.schemas import count, number, prop, text
from agents.schedule import is_sleep

MINUTES_PER_DAY = 24 * 60
# The original's fail-safe wake-up hour.
FALLBACK_WAKE_HOUR = 8
# The paper: a day plan in broad strokes of 5 to 8 items.
FEWEST_PLAN_ITEMS, MOST_PLAN_ITEMS = 5, 8
# Decomposed actions last 5 to 15 minutes (the original: 5-minute granularity).
SHORTEST_ACTION, LONGEST_ACTION = 5, 15
LAST_HOUR = 23
# The fallback day ends at 11 pm, the most common bedtime among the 25 personas' lifestyles.
FALLBACK_BEDTIME = 23
SLEEPING = "sleeping"
# Longest texts an answer may hold, in characters (a grammar-constrained model otherwise runs on to max_tokens).
LONGEST_PLAN_ITEM, LONGEST_ACTIVITY, MOST_BLOCKS = 160, 100, 48
# Answer tokens of a decomposition: the list's key and brackets, and one action (up to LONGEST_ACTIVITY characters,
# about 25 o200k tokens, and its minutes).
TOKENS_OF_ACTIONS, TOKENS_PER_ACTION = 60, 35


def _check_wake_hour(kind: str, wake_hour: int) -> None:
    if not 0 <= wake_hour <= LAST_HOUR:
        raise ValueError(f"{kind}: wake_hour must be 0-{LAST_HOUR}, got {wake_hour}")


class _Hour(BaseModel):
    hour: int = Field(ge=0, le=23)


class _Plan(BaseModel):
    plan: list[str] = Field(min_length=1)


class _Block(BaseModel):
    activity: str = Field(min_length=1)
    minutes: int = Field(gt=0)


class _Schedule(BaseModel):
    schedule: list[_Block] = Field(min_length=1)


class _Action(BaseModel):
    action: str = Field(min_length=1)
    minutes: int = Field(gt=0)


class _Actions(BaseModel):
    actions: list[_Action] = Field(min_length=1)


def _constrain_blocks(schema: dict, total: int, shortest: int = 5) -> None:
    blocks = count(prop(schema, "schedule"), 1, min(MOST_BLOCKS, total // shortest))
    text(prop(blocks, "items", "activity"), LONGEST_ACTIVITY)
    number(prop(blocks, "items", "minutes"), shortest, total)


@dataclass(frozen=True)
class WakeUpRequest(Request[int]):
    """The hour the persona wakes up."""

    kind = "wake_up"
    template = "wake_up.txt"
    temperature = 0.0
    max_tokens = 20
    answer_model = _Hour

    identity: Identity

    def fields(self) -> dict[str, str]:
        return persona_fields(self.identity)

    def parse(self, text: str) -> int:
        return parse_json(text, _Hour).hour

    def fallback(self) -> int:
        return FALLBACK_WAKE_HOUR


@dataclass(frozen=True)
class DayPlanRequest(Request[tuple[str, ...]]):
    """The day in broad strokes: 5 to 8 items with their times."""

    kind = "day_plan"
    template = "day_plan.txt"
    max_tokens = 500
    answer_model = _Plan

    identity: Identity
    today: date
    wake_hour: int
    yesterday: str = ""

    def validate(self) -> None:
        _check_wake_hour(self.kind, self.wake_hour)

    def constrain(self, schema: dict) -> None:
        plan = count(prop(schema, "plan"), FEWEST_PLAN_ITEMS, MOST_PLAN_ITEMS)
        text(plan["items"], LONGEST_PLAN_ITEM, least=3)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "today": day_text(self.today),
            "wake": clock(self.wake_hour * 60),
            "yesterday": self.yesterday or "(this is the first day)",
        }

    def parse(self, text: str) -> tuple[str, ...]:
        items = [item.strip() for item in parse_json(text, _Plan).plan if item.strip()]
        if not FEWEST_PLAN_ITEMS <= len(items) <= MOST_PLAN_ITEMS:
            raise AnswerError(
                f"a day plan needs {FEWEST_PLAN_ITEMS} to {MOST_PLAN_ITEMS} items, got {len(items)}; "
                "merge or split the broad strokes"
            )
        return tuple(items)

    def fallback(self) -> tuple[str, ...]:
        wake = clock(self.wake_hour * 60)
        return (
            f"from {wake} to {clock(self.wake_hour * 60 + 60)}, waking up and getting ready",
            "from 9:00 am to 12:00 pm, going about the day's work",
            "from 12:00 pm to 1:00 pm, having lunch",
            "from 1:00 pm to 6:00 pm, going about the day's work",
            "from 6:00 pm to 7:00 pm, having dinner",
            "from 7:00 pm to 11:00 pm, relaxing at home",
        )


@dataclass(frozen=True)
class HourlyScheduleRequest(Request[tuple[PlanBlock, ...]]):
    """The whole day as consecutive blocks from midnight, summing to 24 hours (one call; the original makes ~18)."""

    kind = "hourly_schedule"
    template = "hourly_schedule.txt"
    max_tokens = 900
    answer_model = _Schedule

    identity: Identity
    today: date
    wake_hour: int
    day_plan: tuple[str, ...]

    def validate(self) -> None:
        _check_wake_hour(self.kind, self.wake_hour)
        if not self.day_plan:
            raise ValueError("hourly_schedule: day_plan is empty; ask for a day plan first")

    def constrain(self, schema: dict) -> None:
        _constrain_blocks(schema, MINUTES_PER_DAY)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "today": day_text(self.today),
            "wake": clock(self.wake_hour * 60),
            "plan": numbered(self.day_plan),
        }

    def parse(self, text: str) -> tuple[PlanBlock, ...]:
        """The schedule from midnight; a night left out (no sleep before waking) is put back, asleep."""
        blocks = [(block.activity, block.minutes) for block in parse_json(text, _Schedule).schedule]
        starts = accumulate((minutes for _, minutes in blocks), initial=0)
        before_waking = [
            activity for (activity, _), start in zip(blocks, starts, strict=False) if start < self.wake_hour * 60
        ]
        if self.wake_hour and not any(is_sleep(activity) for activity in before_waking):
            blocks.insert(0, (SLEEPING, self.wake_hour * 60))
        return fit_blocks(blocks, MINUTES_PER_DAY)

    def fallback(self) -> tuple[PlanBlock, ...]:
        awake = max(60, (FALLBACK_BEDTIME - self.wake_hour) * 60)
        first = min(self.wake_hour * 60, MINUTES_PER_DAY - awake)
        blocks = [(SLEEPING, first), ("going about the day", awake), (SLEEPING, MINUTES_PER_DAY - awake - first)]
        return fit_blocks([(activity, minutes) for activity, minutes in blocks if minutes > 0], MINUTES_PER_DAY)


@dataclass(frozen=True)
class DecomposeRequest(Request[tuple[PlanBlock, ...]]):
    """An activity broken into 5-15 minute actions that fill its block exactly.

    Its answer may hold up to one action per 5 minutes, so the tokens allowed grow with the block: a fixed cap cut
    a real model's 12-hour shift (48 items or more) short, and the fallback then repeated the block's name.
    """

    kind = "decompose"
    template = "decompose.txt"
    max_tokens = 800
    answer_model = _Actions

    identity: Identity
    activity: str
    start_minute: int
    minutes: int
    before: str = ""
    after: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        most = self.minutes // SHORTEST_ACTION
        object.__setattr__(self, "max_tokens", TOKENS_OF_ACTIONS + TOKENS_PER_ACTION * most)

    def validate(self) -> None:
        if not self.activity.strip():
            raise ValueError("decompose: activity is empty")
        if not 0 <= self.start_minute < MINUTES_PER_DAY:
            raise ValueError(f"decompose: start_minute must be 0-{MINUTES_PER_DAY - 1}, got {self.start_minute}")
        if self.minutes <= 0 or self.minutes % SHORTEST_ACTION:
            raise ValueError(f"decompose: minutes must be a positive multiple of {SHORTEST_ACTION}, got {self.minutes}")

    def constrain(self, schema: dict) -> None:
        """5-15 minute actions, up to 12 hours of them; `parse` fits them to this block's length."""
        actions = prop(schema, "actions")
        count(actions, 1, MOST_BLOCKS)
        text(prop(actions, "items", "action"), LONGEST_ACTIVITY)
        number(prop(actions, "items", "minutes"), SHORTEST_ACTION, LONGEST_ACTION)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "activity": self.activity,
            "start": clock(self.start_minute),
            "end": clock(self.start_minute + self.minutes),
            "minutes": str(self.minutes),
            "before": self.before or "nothing planned",
            "after": self.after or "nothing planned",
        }

    def parse(self, text: str) -> tuple[PlanBlock, ...]:
        actions = parse_json(text, _Actions).actions
        return fit_blocks(
            [(action.action, action.minutes) for action in actions],
            self.minutes,
            shortest=SHORTEST_ACTION,
            longest=LONGEST_ACTION,
        )

    def fallback(self) -> tuple[PlanBlock, ...]:
        return fit_blocks([(self.activity, self.minutes)], self.minutes, longest=LONGEST_ACTION)


@dataclass(frozen=True)
class ScheduleRewriteRequest(Request[tuple[PlanBlock, ...]]):
    """The rest of a window of the schedule, rewritten around an inserted activity (a talk, a wait)."""

    kind = "schedule_rewrite"
    template = "schedule_rewrite.txt"
    max_tokens = 600
    answer_model = _Schedule

    identity: Identity
    now_minute: int
    inserted: str
    inserted_minutes: int
    remaining: tuple[PlanBlock, ...]

    @property
    def total(self) -> int:
        """Minutes the rewrite must fill."""
        return sum(block.minutes for block in self.remaining)

    def validate(self) -> None:
        if not self.inserted.strip():
            raise ValueError("schedule_rewrite: the inserted activity is empty")
        if not self.remaining or not 0 < self.inserted_minutes <= self.total:
            raise ValueError(
                f"schedule_rewrite: inserted_minutes ({self.inserted_minutes}) must be positive and fit in the "
                f"remaining window ({self.total} minutes)"
            )

    def constrain(self, schema: dict) -> None:
        """Blocks of any length within a day; `parse` fits them to the window rewritten."""
        _constrain_blocks(schema, MINUTES_PER_DAY, shortest=1)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "now": clock(self.now_minute),
            "inserted": self.inserted,
            "inserted_minutes": str(self.inserted_minutes),
            "remaining": "\n".join(f"- {quote(block.activity)} ({block.minutes} minutes)" for block in self.remaining),
            "total": str(self.total),
        }

    def parse(self, text: str) -> tuple[PlanBlock, ...]:
        blocks = [(block.activity, block.minutes) for block in parse_json(text, _Schedule).schedule]
        if blocks[0][0].strip().lower() != self.inserted.strip().lower():
            blocks = [(self.inserted, self.inserted_minutes), *blocks]
        blocks[0] = (self.inserted, self.inserted_minutes)
        return fit_blocks(blocks, self.total, step=1, shortest=1)

    def fallback(self) -> tuple[PlanBlock, ...]:
        rest = [(block.activity, block.minutes) for block in self.remaining]
        return fit_blocks([(self.inserted, self.inserted_minutes), *rest], self.total, step=1, shortest=1)
