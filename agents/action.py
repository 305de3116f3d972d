"""The action an agent is carrying out: what, where, since when, and the path that takes it there."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class CurrentAction:
    """One action of the schedule, resolved to a place.

    Attributes:
        description: What the agent does, e.g. "working at the cafe (brewing coffee)".
        address: Where, in the world tree, e.g. "the Ville:Hobbs Cafe:cafe:behind the cafe counter".
        start: When it started.
        minutes: How long it is planned to last.
        emoji: A short pictogram for the map.
        event: The (subject, predicate, object) others perceive.
        object_state: The state the object takes while in use ("" when the action uses no object).
        path: Tiles still to walk, next first.
        in_use: Whether the agent has arrived and set the object's state.
    """

    description: str
    address: str
    start: datetime
    minutes: int
    emoji: str = "🙂"
    event: tuple[str, str, str] = ("", "", "")
    object_state: str = ""
    path: list[tuple[int, int]] = field(default_factory=list)
    in_use: bool = False
    _end: tuple | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def end(self) -> datetime:
        """When the action is planned to end.

        Asked several times a step of every agent, so it is kept while the start and the minutes stay.
        """
        start, minutes = self.start, self.minutes
        kept = self._end
        if kept is None or kept[0] is not start or kept[1] != minutes:
            kept = self._end = (start, minutes, start + timedelta(minutes=minutes))
        return kept[2]

    def finished(self, now: datetime) -> bool:
        """Whether the action's time is up."""
        return now >= self.end

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "description": self.description,
            "address": self.address,
            "start": self.start.isoformat(),
            "minutes": self.minutes,
            "emoji": self.emoji,
            "event": list(self.event),
            "object_state": self.object_state,
            "path": [list(tile) for tile in self.path],
            "in_use": self.in_use,
        }

    @classmethod
    def from_state(cls, state: dict) -> "CurrentAction":
        """Rebuild an action saved by `get_state`."""
        return cls(
            description=state["description"],
            address=state["address"],
            start=datetime.fromisoformat(state["start"]),
            minutes=state["minutes"],
            emoji=state["emoji"],
            event=tuple(state["event"]),
            object_state=state["object_state"],
            path=[tuple(tile) for tile in state["path"]],
            in_use=state["in_use"],
        )
