"""What the browser panels show, as plain records: the same for a live model and for the replay of a run folder.

The panels never reach into agents or run folders themselves; a `TownSource` (live.py, replay.py) answers them, so
one panel code shows both, and a panel test needs no model at all.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import networkx as nx
import pandas as pd

from agents import Identity


@dataclass(frozen=True)
class Marker:
    """An agent on the map.

    Attributes:
        name: Full name.
        tile: (x, y) in tiles.
        emoji: The current action's pictogram.
        activity: The current action in words (the marker's tooltip).
        sleeping: Whether the action is sleep (the marker is dimmed).
        talking: Whether the agent is in a conversation.
        thinking: Whether a thought of the agent is in flight (it stands still until the thought takes effect).
        player: Whether it is a person who joined the town from the page or the command line, not an agent.
    """

    name: str
    tile: tuple[int, int]
    emoji: str
    activity: str
    sleeping: bool = False
    talking: bool = False
    thinking: bool = False
    player: bool = False


@dataclass(frozen=True)
class PlanItem:
    """One entry of today's plan.

    Attributes:
        start: "07:30".
        activity: What the agent planned.
        minutes: How long.
        current: Whether the clock is inside this item.
    """

    start: str
    activity: str
    minutes: int
    current: bool


@dataclass(frozen=True)
class RecalledMemory:
    """A memory retrieved for a decision, with the paper's three signals (each min-max normalized to 0-1).

    Attributes:
        description: The memory in words.
        kind: event, chat, thought or reflection.
        created: When it was stored.
        score: The weighted sum that ranked it.
        recency, relevance, importance: The three signals.
    """

    description: str
    kind: str
    created: datetime | None
    score: float
    recency: float
    relevance: float
    importance: float


@dataclass(frozen=True)
class Remembered:
    """One of the newest memories of the stream."""

    description: str
    kind: str
    created: datetime
    importance: int


@dataclass(frozen=True)
class Reflection:
    """An insight and the memories it cites."""

    text: str
    created: datetime | None
    cites: tuple[str, ...]


@dataclass(frozen=True)
class AgentCard:
    """Everything the inspector shows of one agent.

    Attributes:
        person: Who the agent is (name, age, traits, background, lifestyle); a replay's `currently` is its latest plan.
        activity, emoji, place: The current action and where it happens, in words.
        plan: Today's plan, in order.
        recalled_for: The focal points of the last retrieval ("" if none yet).
        recalled: The memories that retrieval returned, best first.
        recent: The newest memories of the stream, newest first.
        reflections: The newest reflections, newest first.
        conversation: The current talk's (speaker, line)s; empty when not talking.
        partner: Who the agent is talking with, if anyone.
        thinking_until: When the agent's thought in flight takes effect (None when it is not thinking).
    """

    person: Identity
    activity: str
    emoji: str
    place: str
    plan: list[PlanItem] = field(default_factory=list)
    recalled_for: str = ""
    recalled: list[RecalledMemory] = field(default_factory=list)
    recent: list[Remembered] = field(default_factory=list)
    reflections: list[Reflection] = field(default_factory=list)
    conversation: list[tuple[str, str]] = field(default_factory=list)
    partner: str | None = None
    thinking_until: datetime | None = None


@dataclass(frozen=True)
class FeedLine:
    """One entry of the conversation feed: a line said, or a talk's summary."""

    time: datetime
    speaker: str
    partner: str
    text: str
    summary: bool = False


class TownSource(Protocol):
    """What the panels ask of a town, live or replayed."""

    live: bool
    """Whether the agents can be interviewed and whispered to (a replay only shows)."""

    @property
    def now(self) -> datetime:
        """The simulated time shown."""

    def names(self) -> list[str]:
        """The agents, in the scenario's order."""

    def markers(self) -> list[Marker]:
        """Every agent on the map."""

    def card(self, name: str) -> AgentCard:
        """One agent for the inspector."""

    def feed(self, limit: int) -> list[FeedLine]:
        """The newest conversation lines and summaries, newest last."""

    def graph(self) -> nx.Graph:
        """The relationship graph (who knows whom)."""

    def trails(self, minutes: int) -> dict[str, list[tuple[int, int]]]:
        """Where each agent stood over the last `minutes` simulated minutes, oldest first (repeats dropped)."""

    def speech(self) -> list[tuple[str, str]]:
        """Each talk's latest line as (speaker, text), for the speech bubbles on the map."""

    def metrics(self) -> pd.DataFrame:
        """The town's metrics over time: one row per collection, the DataCollector's model columns."""


def initials(name: str) -> str:
    """The marker's letters: "Isabella Rodriguez" -> "IR"."""
    return "".join(part[0] for part in name.split() if part[:1].isalpha()).upper()[:3]


def without_repeats(tiles: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A walk with standing still removed: each tile once per stay."""
    return [tile for index, tile in enumerate(tiles) if index == 0 or tile != tiles[index - 1]]


def address_in_words(address: str) -> str:
    """An address read from the inside out: "the Ville:Hobbs Cafe:cafe:piano" -> "piano, cafe, Hobbs Cafe"."""
    parts = [part for part in address.split(":")[1:] if part]
    return ", ".join(reversed(parts)) if parts else "somewhere in the streets"


def plan_items(blocks: list[tuple[str, int]], minute: int) -> list[PlanItem]:
    """A day's (activity, minutes) blocks as plan items, marking the one `minute` (since midnight) falls in."""
    items, start = [], 0
    for activity, minutes in blocks:
        items.append(
            PlanItem(
                start=f"{start // 60:02d}:{start % 60:02d}",
                activity=activity,
                minutes=minutes,
                current=start <= minute < start + minutes,
            )
        )
        start += minutes
    return items
