"""Perception (the paper's section 4.1; the original's perceive.py): what an agent notices around it.

The agent sees the events within its vision square in its own arena, attends to the nearest few, and remembers
those it has not just perceived, their importance scored in a batch. Idle objects are seen (the spatial memory
grows with them) but not remembered: the original stores them at importance 1 and then leaves every "idle" memory
out of retrieval, so they cost storage and embedding and are never used.
"""

from collections.abc import Container
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import islice

from agents.agent_memory import AgentMemory, PendingMemory
from agents.config import MindConfig
from agents.world_view import WorldView
from environment import Event, SeenEvent, SpatialMemory, describe_event, unusual
from memory import NodeKind


@dataclass(frozen=True)
class QuietLook:
    """A look that found nothing new, and what it depended on: looking again finds nothing new while they hold.

    Attributes:
        look: The world's key for the look (`WorldState.look_key`): equal keys, the same events in sight.
        memory: The memory's key (`AgentMemory.events_key`): equal keys, the same events remembered.
        config: The settings it was taken with.
        until: When the first of the events seen was remembered `retention_minutes` ago, so that it counts as new
            again (None if none will by the clock alone).
        seen: The events attended to.
    """

    look: tuple
    memory: tuple
    config: MindConfig
    until: datetime | None
    seen: tuple[SeenEvent, ...]

    def holds(self, look: tuple, memory: tuple, config: MindConfig, now: datetime) -> bool:
        """Whether a look now would find the same, and nothing new."""
        fresh = self.until is None or now <= self.until
        return fresh and look == self.look and memory == self.memory and config is self.config


@dataclass(frozen=True)
class Perception:
    """What one step of perception found: the events attended to and the new ones among them.

    When nothing was new, `quiet` is the look to hand to the next perception.
    """

    seen: tuple[SeenEvent, ...]
    new: tuple[SeenEvent, ...]
    quiet: QuietLook | None = None

    def new_agents(self, names: Container[str]) -> list[str]:
        """Other agents whose new activity the agent just noticed, nearest first."""
        return [seen.event.subject for seen in self.new if seen.event.subject in names]

    def unusual_objects(self) -> list[Event]:
        """Objects in sight in a state the world's own rules did not make (environment.unusual), nearest first.

        All of them, not only the newly noticed: an agent asleep, talking or just busy deciding something else when
        it first saw the stove burning still has it before its eyes once it is free (agents/cognition/tending.py).
        """
        return [seen.event for seen in self.seen if unusual(seen.event)]


event_text = describe_event  # an event as a memory reads it: "Klaus Mueller is reading a book"


def perceive(
    view: WorldView,
    agent: str,
    tile: tuple[int, int],
    config: MindConfig,
    spatial: SpatialMemory,
    memory: AgentMemory,
    quiet: QuietLook | None = None,
) -> Perception:
    """Notice the nearest events, grow the spatial memory, and remember what is new.

    An event is new unless it is among the `retention` newest events remembered (the original's rule) or was
    remembered within the last `retention_minutes`: in a crowd the nearest few change at every step, and the first
    rule alone stored more than half of a day's events again within the hour.

    `quiet` is the last perception's look if it found nothing new: when neither the view from the tile nor the
    memory has changed since, and no event seen is due to count as new again, this look is that one (most agents
    spend hours in one place), and only the clock is read.
    """
    look = view.state.look_key(tile, config.vision_radius)
    remembered = memory.events_key()
    if quiet is not None and quiet.holds(look, remembered, config, view.now):
        return Perception(seen=quiet.seen, new=(), quiet=quiet)
    already = memory.recent_keys(config.retention)
    since = view.now - timedelta(minutes=config.retention_minutes) if config.retention_minutes else None
    visible = view.state.visible_events(tile, radius=config.vision_radius, same_arena=True)
    seen = tuple(islice((item for item in visible if item.event.subject != agent), config.attention_bandwidth))
    spatial.add(view.ville.arena_address_at(tile))
    for item in seen:
        if ":" in item.event.subject:
            spatial.add(item.event.subject)
    new, renewed = [], []
    for item in seen:
        if item.event.description == "idle":
            continue
        text = event_text(item.event)
        if text in already:
            continue
        last = memory.last_perceived(text) if since is not None else None
        if last is None or last < since:
            new.append(item)
        else:  # remembered within the window: new again once it is `retention_minutes` old
            renewed.append(last + timedelta(minutes=config.retention_minutes))
    if new:
        if config.observation:
            for item in new:
                remember_event(memory, item.event, view)
        return Perception(seen=seen, new=tuple(new))
    return Perception(seen=seen, new=(), quiet=QuietLook(look, remembered, config, min(renewed, default=None), seen))


def remember_event(memory: AgentMemory, event: Event, view: WorldView) -> None:
    """Queue a perceived event for the next batched importance score."""
    text = event_text(event)
    name = event.subject.rsplit(":", 1)[-1]
    keywords = tuple(word for word in (name, event.object) if word)
    memory.queue(
        PendingMemory(
            kind=NodeKind.EVENT,
            description=text,
            created=view.now,
            subject=event.subject,
            predicate=event.predicate,
            object=event.object,
            keywords=keywords,
        )
    )
