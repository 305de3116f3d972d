"""Planning, the recursion of the paper's section 4.3: wake-up hour, day plan, hourly schedule, decomposition.

Decompositions are kept per agent by activity, length and status, so an activity that recurs under the same status
(the afternoon's "working at the cafe" after the morning's) reuses its actions instead of asking again, and a new
status (tomorrow's plans) asks afresh.
"""

import logging
from datetime import date, datetime, timedelta

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.cognition.conversing import TAKEAWAY
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.answers import PlanBlock
from agents.language.requests import (
    DayPlanRequest,
    DaySummaryRequest,
    DecomposeRequest,
    HourlyScheduleRequest,
    ScheduleRewriteRequest,
    WakeUpRequest,
)
from agents.records import Reuse
from agents.schedule import MINUTES_PER_DAY, DaySchedule
from memory import NodeKind

logger = logging.getLogger(__name__)

# The activity of each waking hour when planning is off (the paper's no-planning ablation).
UNPLANNED_ACTIVITY = "doing what the moment calls for"


async def plan_day(
    ask: Ask, identity: Identity, memory: AgentMemory, now: datetime, config: MindConfig, *, yesterday: str
) -> DaySchedule:
    """Plan a day: the wake-up hour, then (with planning on) a plan in broad strokes and an hourly schedule."""
    today = now.date()
    wake_hour = await ask(WakeUpRequest(identity=identity))
    if not config.planning:
        return DaySchedule.from_blocks(today, unplanned_blocks(wake_hour))
    items = await ask(DayPlanRequest(identity=identity, today=today, wake_hour=wake_hour, yesterday=yesterday))
    blocks = await ask(HourlyScheduleRequest(identity=identity, today=today, wake_hour=wake_hour, day_plan=items))
    plan_text = f"This is {identity.name}'s plan for {today:%A %B %d}: " + "; ".join(items)
    await _think_about_day(memory, identity, plan_text, today, now, config, predicate="plan", keyword="plan")
    return DaySchedule.from_blocks(today, [(block.activity, block.minutes) for block in blocks])


def unplanned_blocks(wake_hour: int) -> list[tuple[str, int]]:
    """Asleep until the wake-up hour, then one undecided hour at a time until 11 pm, then asleep."""
    wake_hour = min(max(wake_hour, 0), 22)
    waking = [(UNPLANNED_ACTIVITY, 60)] * (23 - wake_hour)
    blocks = [("sleeping", wake_hour * 60)] if wake_hour else []
    blocks += [*waking, ("sleeping", 60)]
    assert sum(minutes for _, minutes in blocks) == MINUTES_PER_DAY
    return blocks


async def summarize_day(
    ask: Ask, identity: Identity, memory: AgentMemory, day: date, now: datetime, config: MindConfig
) -> tuple[Identity, str]:
    """Look back on a finished day: a summary thought, and the identity with tomorrow's `currently` status.

    What it reads is the original's revise_identity retrieval, "<name>'s plans for <tomorrow>" and "important recent
    events in <name>'s life", with the day's talk takeaways always in (an invitation heard at breakfast must reach
    tomorrow's plan however busy the day was), each memory once, oldest first and with its time. Returns the identity
    and the day's summary (what tomorrow's plan shows as "Yesterday").
    """
    tomorrow = day + timedelta(days=1)
    focal = [
        f"{identity.name}'s plans for {tomorrow:%A %B} {tomorrow.day}",
        f"Important recent events in {identity.name}'s life",
    ]
    retrieved = await memory.retrieve(focal, now=now, k=config.day_summary_memories, weights=config.retrieval_weights)
    takeaways = [
        node
        for node in memory.stream.recent(len(memory.stream), kinds=[NodeKind.THOUGHT])
        if node.created.date() == day and node.predicate == TAKEAWAY
    ]
    nodes = [item.node for items in retrieved for item in items] + takeaways
    newest = {}
    for node in sorted(nodes, key=lambda node: (node.created, node.id)):
        newest.pop(node.description, None)
        newest[node.description] = node.created
    statements = tuple(sorted(((when, text) for text, when in newest.items()), key=lambda pair: pair[0]))
    summary = await ask(DaySummaryRequest(identity=identity, today=day, memories=statements))
    text = f"Summary of {identity.name}'s {day:%A %B %d}: {summary.summary}"
    await _think_about_day(memory, identity, text, day, now, config, predicate="summarized", keyword="summary")
    return identity.with_currently(summary.currently), summary.summary


async def _think_about_day(
    memory: AgentMemory,
    identity: Identity,
    text: str,
    day: date,
    now: datetime,
    config: MindConfig,
    *,
    predicate: str,
    keyword: str,
) -> None:
    """Remember a thought of the agent about one of its days (its plan, its summary), weighted as plans are."""
    await memory.add(
        NodeKind.THOUGHT,
        text,
        created=now,
        importance=config.plan_importance,
        subject=identity.name,
        predicate=predicate,
        object=day.isoformat(),
        keywords=(keyword,),
    )


async def decompose_slot(
    ask: Ask, identity: Identity, schedule: DaySchedule, minute: int, known: dict[str, list[tuple[str, int]]]
) -> None:
    """Make sure the slot running at `minute` is an action, decomposing its block into 5-15 minute actions."""
    index, start, slot = schedule.slot_at(minute)
    if slot.final:
        return
    key = Reuse.key(identity.currently, slot.activity, slot.minutes)
    pieces = known.get(key)
    if pieces is None and slot.minutes < 5:
        pieces = [("finishing up", slot.minutes)]  # a sliver left by a reaction: not worth a call
    if pieces is None:
        before = schedule.slots[index - 1].activity if index > 0 else ""
        after = schedule.slots[index + 1].activity if index + 1 < len(schedule.slots) else ""
        # Requests ask in whole 5-minute steps; a slot cut by a reaction may be a few minutes longer.
        asked = max(5, slot.minutes - slot.minutes % 5)
        blocks = await ask(
            DecomposeRequest(
                identity=identity,
                activity=slot.activity,
                start_minute=start,
                minutes=asked,
                before=before,
                after=after,
            )
        )
        pieces = [(block.activity, block.minutes) for block in blocks]
        if asked != slot.minutes:
            activity, minutes = pieces[-1]
            pieces[-1] = (activity, minutes + slot.minutes - asked)
        known[key] = pieces
    schedule.decompose(index, pieces)


async def rewrite_schedule(
    ask: Ask, identity: Identity, schedule: DaySchedule, inserted: str, minutes: int, minute: int
) -> bool:
    """Fit an inserted activity (a talk, a wait) in at `minute`, rewriting the rest of its hour; False if no room."""
    _, end = schedule.hourly_window(minute)
    end = max(end, min(minute + minutes, MINUTES_PER_DAY))
    minutes = min(minutes, end - minute)
    if minutes <= 0:
        return False
    remaining = tuple(PlanBlock(activity=a, minutes=m) for a, m in schedule.remaining(minute, end))
    blocks = await ask(
        ScheduleRewriteRequest(
            identity=identity, now_minute=minute, inserted=inserted, inserted_minutes=minutes, remaining=remaining
        )
    )
    schedule.rewrite(minute, end, [(block.activity, block.minutes) for block in blocks])
    return True
