"""The small records an agent's state is made of, each saving and restoring itself as plain data.

GenerativeAgent holds one of each: what it plans and does (PlanState), its talk and the schedule change a talk or a
reaction asks for (TalkState), when it may next approach someone (SocialClock, every entry a simulated time), and
what it already asked a model and may reuse (Reuse).
"""

import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from agents.action import CurrentAction
from agents.conversation import Conversation
from agents.language.answers import ActionChoice
from agents.schedule import DaySchedule


@dataclass
class PlanState:
    """Today's schedule, the action being carried out, and an object to free once the agent leaves it.

    Attributes:
        schedule: Today's schedule (None before the first plan).
        action: The action in progress (None before the first one).
        release: The address of an object whose state resets at the next move (the agent stopped using it).
    """

    schedule: DaySchedule | None = None
    action: CurrentAction | None = None
    release: str | None = None

    def replace_action(self, action: CurrentAction) -> None:
        """Start another action; an object the old one was using is released at the next move."""
        if self.action is not None and self.action.in_use:
            self.release = self.action.address
        self.action = action

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "schedule": self.schedule.get_state() if self.schedule else None,
            "action": self.action.get_state() if self.action else None,
            "release": self.release,
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.schedule = DaySchedule.from_state(state["schedule"]) if state["schedule"] else None
        self.action = CurrentAction.from_state(state["action"]) if state["action"] else None
        self.release = state["release"]


@dataclass
class TalkState:
    """The talk in progress, the schedule rewrite a talk or a wait asks for, and what it thinks of the partner.

    Attributes:
        conversation: The talk, shared with the partner (the model owns and restores it).
        rewrite: (inserted activity, minutes) to fit into the schedule at the next thought.
        relationship: (person, what the agent feels and knows about them), asked once per talk (with the reaction
            that starts it, or with the agent's first line) and used for every later line.
    """

    conversation: Conversation | None = None
    rewrite: tuple[str, int] | None = None
    relationship: tuple[str, str] | None = None

    def relationship_with(self, person: str) -> str:
        """What the agent said it feels and knows about `person` for this talk ("" if not asked yet)."""
        return self.relationship[1] if self.relationship and self.relationship[0] == person else ""

    def get_state(self) -> dict:
        """Plain data for checkpoints (the conversation is saved once, by the model)."""
        return {
            "rewrite": list(self.rewrite) if self.rewrite else None,
            "relationship": list(self.relationship) if self.relationship else None,
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved; the model puts the conversation back."""
        self.rewrite = tuple(state["rewrite"]) if state["rewrite"] else None
        relationship = state.get("relationship")  # absent from checkpoints written before it
        self.relationship = tuple(relationship) if relationship else None
        self.conversation = None


@dataclass
class SocialClock:
    """When the agent may next talk with someone, reconsider someone, or consider anyone at all.

    Attributes:
        chats: Partner -> when the pair may talk again.
        reactions: Person -> when the agent may again consider reacting to them after deciding not to.
        paused_until: Until when the agent considers no one (after a reaction or a talk).
    """

    chats: dict[str, datetime] = field(default_factory=dict)
    reactions: dict[str, datetime] = field(default_factory=dict)
    paused_until: datetime | None = None

    def paused(self, now: datetime) -> bool:
        """Whether the agent considers no one right now."""
        return self.paused_until is not None and now < self.paused_until

    def may_reconsider(self, other: str, now: datetime) -> bool:
        """Whether the agent may again consider reacting to `other`."""
        return self.reactions.get(other, now) <= now

    def may_chat(self, other: str, now: datetime) -> bool:
        """Whether the pair's cool-down since their last talk is over."""
        until = self.chats.get(other)
        return until is None or now >= until

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "chats": {name: when.isoformat() for name, when in self.chats.items()},
            "reactions": {name: when.isoformat() for name, when in self.reactions.items()},
            "paused_until": self.paused_until.isoformat() if self.paused_until else None,
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.chats = {name: datetime.fromisoformat(when) for name, when in state["chats"].items()}
        self.reactions = {name: datetime.fromisoformat(when) for name, when in state["reactions"].items()}
        paused = state["paused_until"]
        self.paused_until = datetime.fromisoformat(paused) if paused else None


def status_key(currently: str) -> str:
    """A short stable key of a persona's status (the same in every process)."""
    return hashlib.blake2b(currently.encode(), digest_size=6).hexdigest()


@dataclass
class Reuse:
    """What the agent already asked a model and reuses when the same activity recurs under the same status.

    A decomposition or a place is asked with the persona's status in the prompt, so an answer is reused only while
    the status is the one it was asked under: a new day's status (a party to prepare) reaches the actions. Keys are
    "<status key>|activity|minutes" and "<status key>|action".

    Attributes:
        decompositions: Key -> the block's 5-15 minute actions.
        action_choices: Key -> the action's place, emoji and event.
    """

    decompositions: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    action_choices: dict[str, ActionChoice] = field(default_factory=dict)

    @staticmethod
    def key(currently: str, *parts: object) -> str:
        """The key of what was asked under this status: "<status key>|activity|minutes" or "<status key>|action"."""
        return "|".join([status_key(currently), *map(str, parts)])

    def keep_status(self, currently: str) -> None:
        """Forget what was asked under another status (a new day's): it will not be reused."""
        prefix = status_key(currently) + "|"
        self.decompositions = {key: value for key, value in self.decompositions.items() if key.startswith(prefix)}
        self.action_choices = {key: value for key, value in self.action_choices.items() if key.startswith(prefix)}

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "decompositions": {key: [list(piece) for piece in pieces] for key, pieces in self.decompositions.items()},
            "action_choices": {text: dict(vars(choice)) for text, choice in self.action_choices.items()},
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.decompositions = {key: [tuple(p) for p in pieces] for key, pieces in state["decompositions"].items()}
        self.action_choices = {text: ActionChoice(**choice) for text, choice in state["action_choices"].items()}
