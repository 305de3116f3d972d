"""What requests answer: small frozen records the cognition uses directly."""

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class PlanBlock:
    """An activity and how long it lasts, in minutes."""

    activity: str
    minutes: int


@dataclass(frozen=True)
class PlaceOption:
    """An arena the agent may choose, with its objects."""

    sector: str
    arena: str
    objects: tuple[str, ...]


@dataclass(frozen=True)
class ActionChoice:
    """Where and how an action happens: its place, emoji, event triple, the object's state, its importance."""

    action: str
    sector: str
    arena: str
    game_object: str
    emoji: str
    subject: str
    predicate: str
    object: str
    object_state: str
    importance: int


@dataclass(frozen=True)
class Reaction:
    """What to do on noticing someone: talk to them, wait for them, or go on.

    With "talk", `opening` is the line that opens the talk ("" if none was given: it is then asked for on its own)
    and `relationship` what the agent feels and knows about the other, which steers what it recalls in the talk.
    """

    choice: Literal["talk", "wait", "continue"]
    reason: str
    opening: str = ""
    relationship: str = ""


@dataclass(frozen=True)
class ObjectReaction:
    """What to do on noticing an object in an unusual state: see to it (what, for how long) or go on."""

    react: bool
    activity: str
    minutes: int
    reason: str


@dataclass(frozen=True)
class ConversationTurn:
    """One line of a conversation, and whether the speaker ends the talk with it.

    `relationship` is what the speaker feels and knows about the partner, when its first line was asked for it.
    """

    line: str
    end: bool
    relationship: str = ""


@dataclass(frozen=True)
class ConversationSummary:
    """What a talk was about, what each side takes from it, and how much the talk and the takeaway matter to each.

    takeaways: ((name, takeaway), ...); importance: ((name, chat, takeaway), ...), empty if not rated.
    """

    summary: str
    takeaways: tuple[tuple[str, str], ...]
    importance: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class Insight:
    """A reflection, the ids of the memories it rests on, and its importance (None: not rated yet)."""

    text: str
    evidence_ids: tuple[int, ...]
    importance: int | None = None


@dataclass(frozen=True)
class DaySummary:
    """What happened today, and the agent's status going into tomorrow."""

    summary: str
    currently: str


@dataclass(frozen=True)
class Verdict:
    """Which of two answers is more believable, and why."""

    choice: Literal["a", "b"]
    reason: str
