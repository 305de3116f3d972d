"""Who of the players is in the town, where, and what the agents see of them.

A player shows on its tile as an agent does, an event whose description says who they are, so the agents within
vision perceive and remember them with their own perception (agents/cognition/perceiving.py).
"""

from dataclasses import dataclass
from datetime import datetime

from environment import Event, WorldState

# What the agents see of who a player is: a phrase, not a page (the event is one memory's sentence).
LONGEST_SEEN_PERSONA = 160


@dataclass
class Player:
    """A person in the town from outside.

    Attributes:
        name: What the agents call them.
        persona: Who they say they are ("a reporter for the Ville Gazette").
        tile: Where they stand, (x, y).
        last_said: When they last said a line (a talk they leave hanging ends after a while: players/talks.py).
    """

    name: str
    persona: str
    tile: tuple[int, int]
    last_said: datetime | None = None

    def event(self, doing: str = "") -> Event:
        """What the agents see: "Alex Park is visiting (a reporter for the Ville Gazette)" or what they do now."""
        seen = self.persona[:LONGEST_SEEN_PERSONA]
        return Event(self.name, "is", "visiting", doing or f"visiting ({seen})")

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "name": self.name,
            "persona": self.persona,
            "tile": list(self.tile),
            "last_said": self.last_said.isoformat() if self.last_said else None,
        }

    @classmethod
    def from_state(cls, state: dict) -> "Player":
        """Rebuild from `get_state`."""
        said = state["last_said"]
        return cls(
            state["name"], state["persona"], tuple(state["tile"]), datetime.fromisoformat(said) if said else None
        )


class Players:
    """The players in the town now, by name (one who left is gone; joining again is a new visit)."""

    def __init__(self) -> None:
        self.by_name: dict[str, Player] = {}

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def __contains__(self, name: str) -> bool:
        return name in self.by_name

    def __iter__(self):
        return iter(list(self.by_name.values()))

    def get(self, name: str) -> Player | None:
        """The player of that name, if in the town."""
        return self.by_name.get(name)

    def place(self, player: Player, state: WorldState, doing: str = "") -> None:
        """Put (or keep) the player in the town, shown on its tile."""
        self.by_name[player.name] = player
        state.place_agent(player.name, player.tile, player.event(doing))

    def remove(self, name: str, state: WorldState) -> None:
        """Take the player out of the town."""
        self.by_name.pop(name, None)
        state.remove_agent(name)

    def get_state(self) -> list[dict]:
        """Plain data for checkpoints (their events are in the world's state)."""
        return [player.get_state() for player in self.by_name.values()]

    def set_state(self, state: list[dict]) -> None:
        """Restore what `get_state` saved."""
        self.by_name = {item["name"]: Player.from_state(item) for item in state}
