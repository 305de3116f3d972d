"""What an agent may read of the town while it decides: a snapshot taken before any decision is applied.

All agents decide on the same snapshot, so the order in which their model calls return cannot change what they
see; their decisions come back as intents the model applies in a fixed order.
"""

from dataclasses import dataclass
from datetime import datetime

from environment import Ville, WorldState


@dataclass(frozen=True)
class AgentStatus:
    """The public face of an agent at the start of a step.

    Attributes:
        name: Full name.
        tile: Where it stands, (x, y).
        activity: What it is doing, e.g. "working at the cafe (brewing coffee)".
        address: Where its action takes place in the world tree.
        sleeping: Whether it is asleep.
        talking_with: The partner of its current conversation, if any.
        action_ends: When its current action ends.
        emoji: Its action's emoji, for the map.
    """

    name: str
    tile: tuple[int, int]
    activity: str
    address: str
    sleeping: bool
    talking_with: str | None
    action_ends: datetime | None
    emoji: str = ""

    def get_state(self) -> dict:
        """Plain data (a checkpoint keeps the status a thinking agent shows)."""
        return {
            **{name: getattr(self, name) for name in ("name", "activity", "address", "sleeping", "talking_with")},
            "tile": list(self.tile),
            "action_ends": self.action_ends.isoformat() if self.action_ends else None,
            "emoji": self.emoji,
        }

    @classmethod
    def from_state(cls, state: dict) -> "AgentStatus":
        """Rebuild from `get_state`."""
        ends = state["action_ends"]
        return cls(
            **{**state, "tile": tuple(state["tile"]), "action_ends": datetime.fromisoformat(ends) if ends else None}
        )


@dataclass(frozen=True)
class WorldView:
    """The snapshot of one step: the time, the map, the world's state and every agent's status.

    `state` is the live WorldState, read only by perception, before any decision of the step is applied; a thought
    in flight reads `now`, `ville` and `agents`, which stay as they were when it started.
    """

    now: datetime
    step: int
    ville: Ville
    state: WorldState
    agents: dict[str, AgentStatus]
