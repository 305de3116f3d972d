"""Noticing the world (the paper's section 3.2 and 4.3.1): an object in a state nobody put it in, and what to do.

The paper's example: a user rewrites the stove's state to "burning", and Isabella, seeing it, goes to turn it off. The
agent is asked as for any observation whether to react; a reaction is an activity done at the object, fitted into the
schedule as a wait is.
"""

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel

from agents.identity import Identity
from agents.language.answers import ObjectReaction
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json, persona_fields
from agents.language.schemas import number, prop, text

# Bounds of a reaction to an object, in minutes: long enough to walk there and act, short of a new block.
SHORTEST_TENDING, LONGEST_TENDING = 5, 60
LONGEST_ACTIVITY, LONGEST_REASON = 120, 300


class _ObjectReaction(BaseModel):
    react: bool
    reason: str = ""
    activity: str = ""
    minutes: int = SHORTEST_TENDING


@dataclass(frozen=True)
class ObjectReactionRequest(Request[ObjectReaction]):
    """On noticing an object in an unusual state: see to it (an activity at the object, and how long) or go on."""

    kind = "object_reaction"
    template = "object_reaction.txt"
    temperature = 0.3
    max_tokens = 200
    answer_model = _ObjectReaction

    identity: Identity
    now: datetime
    own_activity: str
    own_place: str
    object_address: str
    state: str
    memories: tuple[str, ...] = ()

    def validate(self) -> None:
        if self.object_address.count(":") != 3:
            raise ValueError(f"object_reaction: {self.object_address!r} is not an object's full address")
        if not self.state.strip():
            raise ValueError("object_reaction: the object's state is empty")

    @property
    def object_name(self) -> str:
        """The object's name as the map gives it ("kitchen stove")."""
        return self.object_address.rsplit(":", 1)[-1]

    @property
    def object_place(self) -> str:
        """Where the object is: "sector, arena"."""
        _, sector, arena, _ = self.object_address.split(":")
        return f"{sector}, {arena}"

    def constrain(self, schema: dict) -> None:
        text(prop(schema, "reason"), LONGEST_REASON, least=0)
        # Never blank: the parser needs one when react is true (a schema cannot say "when"), and ignores it otherwise.
        text(prop(schema, "activity"), LONGEST_ACTIVITY)
        number(prop(schema, "minutes"), SHORTEST_TENDING, LONGEST_TENDING)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "own_activity": self.own_activity or "going about the day",
            "own_place": self.own_place or "(somewhere in town)",
            "object": self.object_name,
            "object_place": self.object_place,
            "state": self.state,
            "memories": numbered(self.memories) if self.memories else f"(nothing about the {self.object_name})",
        }

    def parse(self, text: str) -> ObjectReaction:
        answer = parse_json(text, _ObjectReaction)
        activity = " ".join(answer.activity.split())[:LONGEST_ACTIVITY]
        if answer.react and not activity:
            raise AnswerError("activity: empty, but react is true; say what is done about it")
        minutes = min(LONGEST_TENDING, max(SHORTEST_TENDING, answer.minutes))
        return ObjectReaction(answer.react, activity if answer.react else "", minutes, answer.reason.strip())

    def fallback(self) -> ObjectReaction:
        return ObjectReaction(False, "", SHORTEST_TENDING, "no decision could be made")
