"""Perception (the paper's section 4.1; the original's perceive.py): what an agent notices around it.

The agent sees the events within its vision square in its own arena, attends to the nearest few, and remembers
those it has not just perceived, their importance scored in a batch. Idle objects are seen (the spatial memory
grows with them) but not remembered: the original stores them at importance 1 and then leaves every "idle" memory
out of retrieval, so they cost storage and embedding and are never used.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import islice

from agents.agent_memory import AgentMemory, PendingMemory
from agents.config import MindConfig
from agents.world_view import WorldView
from environment import Event, SeenEvent, SpatialMemory, describe_event
from memory import NodeKind


@dataclass(frozen=True)
class Perception:
    """What one step of perception found: the events attended to, and the new ones among them."""

    seen: tuple[SeenEvent, ...]
    new: tuple[SeenEvent, ...]

    def new_agents(self, names: set[str]) -> list[str]:
        """Other agents whose new activity the agent just noticed, nearest first."""
        return [seen.event.subject for seen in self.new if seen.event.subject in names]


event_text = describe_event  # an event as a memory reads it: "Klaus Mueller is reading a book"


def perceive(
    view: WorldView,
    agent: str,
    tile: tuple[int, int],
    config: MindConfig,
    spatial: SpatialMemory,
    memory: AgentMemory,
) -> Perception:
    """Notice the nearest events, grow the spatial memory, and remember what is new.

    An event is new unless it is among the `retention` newest events remembered (the original's rule) or was
    remembered within the last `retention_minutes`: in a crowd the nearest few change at every step, and the first
    rule alone stored more than half of a day's events again within the hour.
    """
    already = memory.recent_keys(config.retention)
    since = view.now - timedelta(minutes=config.retention_minutes) if config.retention_minutes else None
    visible = view.state.visible_events(tile, radius=config.vision_radius, same_arena=True)
    seen = tuple(islice((item for item in visible if item.event.subject != agent), config.attention_bandwidth))
    spatial.add(view.ville.arena_address_at(tile))
    for item in seen:
        if ":" in item.event.subject:
            spatial.add(item.event.subject)
    new = tuple(
        item
        for item in seen
        if item.event.description != "idle" and _is_new(event_text(item.event), already, since, memory)
    )
    if config.observation:
        for item in new:
            remember_event(memory, item.event, view)
    return Perception(seen=seen, new=new)


def _is_new(text: str, already: set[str], since: datetime | None, memory: AgentMemory) -> bool:
    """Neither among the newest events remembered nor, if `since` is set, remembered since then."""
    if text in already:
        return False
    last = memory.last_perceived(text) if since is not None else None
    return last is None or last < since


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
