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
    """

    name: str
    tile: tuple[int, int]
    activity: str
    address: str
    sleeping: bool
    talking_with: str | None
    action_ends: datetime | None


@dataclass(frozen=True)
class WorldView:
    """The snapshot of one step: the time, the map, the world's state and every agent's status.

    `state` is the live WorldState, safe to read because nothing writes to it until every agent has decided.
    """

    now: datetime
    step: int
    ville: Ville
    state: WorldState
    agents: dict[str, AgentStatus]
