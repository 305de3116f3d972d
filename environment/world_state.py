"""The mutable part of the world: each object's state and each agent's current event, and what can be seen.

The original keeps a set of events on every tile; here objects and agents keep one event each, with the tiles
they cover, and `visible_events` answers "what is within my vision square, in my arena" with numpy over all
object tiles at once (25 agents ask it every 10 simulated seconds).
"""

from dataclasses import dataclass

import numpy as np

from environment.ville import Tile, Ville


@dataclass(frozen=True)
class Event:
    """Something happening: (subject, predicate, object) and a description.

    The subject is an agent's name or an object's address; the description is the state phrase,
    e.g. "idle", "being used by Klaus Mueller: playing the piano", "reading a book".
    """

    subject: str
    predicate: str
    object: str
    description: str


@dataclass(frozen=True)
class SeenEvent:
    """An event within sight: the event, its nearest tile, and that tile's distance from the viewer."""

    event: Event
    tile: Tile
    distance: float


def idle(address: str) -> Event:
    """The state of an object nobody uses."""
    return Event(address, "is", "idle", "idle")


class WorldState:
    """Object states and agents' events over a Ville."""

    def __init__(self, ville: Ville):
        self.ville = ville
        self._object_xy, self._object_number = ville.object_tiles()
        self._object_area = _area_keys(ville, self._object_xy)
        self._addresses = {number: ville.object_address(number) for number in np.unique(self._object_number)}
        self._numbers = {address: number for number, address in self._addresses.items()}
        self._states: dict[str, Event] = {}
        self._agents: dict[str, tuple[Tile, Event]] = {}

    # --- objects ------------------------------------------------------------------------------------------------

    def object_state(self, address: str) -> Event:
        """The current state of an object (idle unless someone set it)."""
        return self._states.get(address) or idle(address)

    def set_object_state(self, address: str, event: Event) -> None:
        """Set the state of an object (an agent using it).

        Raises:
            KeyError: If the address is not a game object.
        """
        if address not in self._numbers:
            raise KeyError(f"{address!r} is not a game object of {self.ville.world}")
        self._states[address] = event

    def reset_object(self, address: str) -> None:
        """Back to idle."""
        self._states.pop(address, None)

    # --- agents -------------------------------------------------------------------------------------------------

    def place_agent(self, name: str, tile: Tile, event: Event) -> None:
        """Put an agent's current event on the tile it stands on."""
        self._agents[name] = (tuple(tile), event)

    def remove_agent(self, name: str) -> None:
        """Take an agent off the map."""
        self._agents.pop(name, None)

    def agent_tiles(self) -> dict[str, Tile]:
        """Where each placed agent stands."""
        return {name: tile for name, (tile, _) in self._agents.items()}

    # --- sight --------------------------------------------------------------------------------------------------

    def visible_events(self, tile: Tile, radius: int = 8, same_arena: bool = True) -> list[SeenEvent]:
        """Events within the square of +-radius tiles, in the viewer's arena, nearest first.

        Each object or agent appears once, at its nearest tile; ties are broken by the description, so the
        answer never depends on dictionary order.
        """
        x, y = tile
        viewer_area = _area_keys(self.ville, np.array([[x, y]]))[0]
        xy = self._object_xy
        inside = (np.abs(xy[:, 0] - x) <= radius) & (np.abs(xy[:, 1] - y) <= radius)
        if same_arena:
            inside &= self._object_area == viewer_area
        candidates = np.flatnonzero(inside)
        distances = np.hypot(xy[candidates, 0] - x, xy[candidates, 1] - y)
        nearest: dict[int, tuple[float, Tile]] = {}
        for index, distance in zip(candidates, distances, strict=True):
            number = int(self._object_number[index])
            if number not in nearest or distance < nearest[number][0]:
                nearest[number] = (float(distance), (int(xy[index, 0]), int(xy[index, 1])))
        seen = [
            SeenEvent(self.object_state(self._addresses[number]), spot, distance)
            for number, (distance, spot) in nearest.items()
        ]
        for (ax, ay), event in self._agents.values():
            if abs(ax - x) > radius or abs(ay - y) > radius:
                continue
            if same_arena and _area_keys(self.ville, np.array([[ax, ay]]))[0] != viewer_area:
                continue
            seen.append(SeenEvent(event, (ax, ay), float(np.hypot(ax - x, ay - y))))
        seen.sort(key=lambda item: (item.distance, item.event.subject, item.event.description))
        return seen

    # --- checkpoints --------------------------------------------------------------------------------------------

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "objects": {address: list(_fields(event)) for address, event in sorted(self._states.items())},
            "agents": {
                name: [list(tile), list(_fields(event))] for name, (tile, event) in sorted(self._agents.items())
            },
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self._states = {address: Event(*fields) for address, fields in state["objects"].items()}
        self._agents = {name: (tuple(tile), Event(*fields)) for name, (tile, fields) in state["agents"].items()}


def _fields(event: Event) -> tuple[str, str, str, str]:
    return event.subject, event.predicate, event.object, event.description


def _area_keys(ville: Ville, xy: np.ndarray) -> np.ndarray:
    """An arena key per tile: its arena number, or minus its sector number where it has no arena (0 off the tree)."""
    xs, ys = xy[:, 0], xy[:, 1]
    arena = ville.arena_index[ys, xs]
    return np.where(arena > 0, arena, -ville.sector_index[ys, xs])
