"""The mutable part of the world: each object's state and each agent's current event, and what can be seen.

The original keeps a set of events on every tile; here objects and agents keep one event each, and
`visible_events` answers "what is within my vision square, in my arena" from what each tile sees of the objects
(computed once, see sight.py) and numpy over the agents' tiles (25 agents ask it every 10 simulated seconds).
A look within one arena is kept until something in that arena changes: most agents sit still in quiet rooms.
"""

import math
from bisect import bisect
from dataclasses import dataclass

import numpy as np

from environment.errors import UnknownAddress
from environment.sight import CACHED_VIEWS, ObjectSight, area_keys
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


# The object of an event of an object in use (agents/agent.py sets it while an agent uses the object).
IN_USE = "being used"


def idle(address: str) -> Event:
    """The state of an object nobody uses."""
    return Event(address, "is", "idle", "idle")


def in_state(address: str, state: str) -> Event:
    """An object in a state written in plain words ("burning", "out of order"), as a user or a scenario sets it."""
    return Event(address, "is", state, state)


def unusual(event: Event) -> bool:
    """Whether an event is an object's state that the world's own rules did not make (neither idle nor in use).

    The world makes only these two: an object is idle until an agent uses it, and idle again once it is left. Any
    other state was set from outside (smallville/interventions/applying.py), and the agents who see it may react to it.
    """
    return ":" in event.subject and event.object not in ("idle", IN_USE)


class WorldState:
    """Object states and agents' events over a Ville: what changes while the map stays the same."""

    def __init__(self, ville: Ville):
        """Every object idle, no agent placed."""
        self.ville = ville
        self._sight = ObjectSight(ville)
        self._idle = {address: idle(address) for address in ville.object_addresses()}
        self._states: dict[str, Event] = {}
        self._agents: dict[str, tuple[Tile, Event]] = {}
        self._agent_arrays: tuple[np.ndarray, np.ndarray, list[Event]] | None = None
        self._agents_by_area: dict[int, np.ndarray] | None = None  # arena key -> its agents' rows in the arrays
        # Each arena's count of changes, and the looks kept: (x, y, radius) -> (the arena's count then, the look).
        self._changes: dict[int, int] = {}
        self._looks: dict[tuple[int, int, int], tuple[int, list[SeenEvent]]] = {}
        # The same for its objects alone: an agent walking through an arena changes no object's look from it.
        self._object_changes: dict[int, int] = {}
        self._object_looks: dict[tuple[int, int, int, bool], tuple[int, list[tuple], list[SeenEvent]]] = {}
        self._restores = 0  # set_state calls: a look key from before a restore never equals one from after

    # --- objects ------------------------------------------------------------------------------------------------

    def object_state(self, address: str) -> Event:
        """The current state of an object (idle unless someone set it).

        Raises:
            UnknownAddress: If the address is not a game object.
        """
        self._object(address)
        return self._states.get(address) or self._idle[address]

    def set_object_state(self, address: str, event: Event) -> None:
        """Set the state of an object, e.g. Event(address, "is", "being used", "being used by Klaus Mueller: ...").

        Raises:
            UnknownAddress: If the address is not a game object.
        """
        self._object(address)
        if self._states.get(address) != event:
            self._states[address] = event
            self._changed(*self._sight.areas_of(address), objects=True)

    def reset_object(self, address: str) -> None:
        """Set an object back to idle.

        Raises:
            UnknownAddress: If the address is not a game object.
        """
        self._object(address)
        if self._states.pop(address, None) is not None:
            self._changed(*self._sight.areas_of(address), objects=True)

    # --- agents -------------------------------------------------------------------------------------------------

    def place_agent(self, name: str, tile: Tile, event: Event) -> None:
        """Put an agent's current event on the tile it stands on (moving it there if it was placed elsewhere).

        Raises:
            ValueError: If the tile is off the map.
        """
        x, y = int(tile[0]), int(tile[1])
        if not (0 <= x < self.ville.width and 0 <= y < self.ville.height):
            raise ValueError(f"cannot place {name} on {tile}: off the map ({self.ville.width} x {self.ville.height})")
        before = self._agents.get(name)
        if before == ((x, y), event):
            return
        self._agents[name] = ((x, y), event)
        self._agent_arrays = None
        self._changed(self._sight.area_of(x, y))
        if before is not None:
            self._changed(self._sight.area_of(*before[0]))

    def remove_agent(self, name: str) -> None:
        """Take an agent off the map (nothing happens if it was not on it)."""
        before = self._agents.pop(name, None)
        if before is not None:
            self._agent_arrays = None
            self._changed(self._sight.area_of(*before[0]))

    def agent_tiles(self) -> dict[str, Tile]:
        """Where each placed agent stands."""
        return {name: tile for name, (tile, _) in self._agents.items()}

    # --- sight --------------------------------------------------------------------------------------------------

    def visible_events(self, tile: Tile, radius: int = 8, same_arena: bool = True) -> list[SeenEvent]:
        """Events within the square of +-radius tiles (and, if `same_arena`, in the viewer's arena), nearest first.

        What a tile sees of the (unmoving) objects is computed once with numpy and kept; agents are looked at all
        at once with numpy too. Each distinct event appears once, at its nearest tile; the list is sorted by
        (euclidean distance, description, subject), so it never depends on the order in which agents were placed.
        The viewer's own event is included (at distance 0) if it was placed.

        Raises:
            ValueError: If the tile is off the map.
        """
        x, y = int(tile[0]), int(tile[1])
        if not (0 <= x < self.ville.width and 0 <= y < self.ville.height):
            raise ValueError(f"cannot look from {tile}: off the map ({self.ville.width} x {self.ville.height})")
        if not same_arena:
            return self._look(x, y, radius, same_arena)
        changes = self._changes.get(self._sight.area_of(x, y), 0)
        kept = self._looks.get((x, y, radius))
        if kept is None or kept[0] != changes:
            kept = (changes, self._look(x, y, radius, same_arena))
            if len(self._looks) >= CACHED_VIEWS:
                self._looks.clear()
            self._looks[(x, y, radius)] = kept
        return list(kept[1])

    def look_key(self, tile: Tile, radius: int) -> tuple[int, ...]:
        """What decides `visible_events(tile, radius)` within the arena: two looks with equal keys see the same.

        The key holds the viewer's tile and its arena's count of changes, which only grows, and the restores.
        """
        x, y = int(tile[0]), int(tile[1])
        area = self._sight.area_of(x, y)
        return x, y, radius, area, self._changes.get(area, 0), self._restores

    def _look(self, x: int, y: int, radius: int, same_arena: bool) -> list[SeenEvent]:
        """The objects' look (kept until an object in the arena changes) with the agents in sight sorted into it."""
        keys, seen = self._objects_seen(x, y, radius, same_arena)
        keys, seen = list(keys), list(seen)
        agent_xy, _, events = self._agents_at()
        if not events:
            return seen
        # Within the arena only its own agents are looked at (a town of 1,000 would otherwise test every agent at
        # every look); rows stay in ascending order, as a scan of all agents finds them.
        rows = self._in_area().get(self._sight.area_of(x, y), _NO_ROWS) if same_arena else np.arange(len(events))
        xy = agent_xy[rows]
        found = rows[(np.abs(xy[:, 0] - x) <= radius) & (np.abs(xy[:, 1] - y) <= radius)].tolist()
        for i in found:
            ax, ay = int(agent_xy[i, 0]), int(agent_xy[i, 1])
            item = SeenEvent(events[i], (ax, ay), math.hypot(ax - x, ay - y))
            key = _order(item)
            at = bisect(keys, key)
            keys.insert(at, key)
            seen.insert(at, item)
        if len(found) > 1 and len({events[i] for i in found}) < len(found):  # agents showing one event: its nearest
            distinct: dict[Event, SeenEvent] = {}
            for item in seen:
                distinct.setdefault(item.event, item)
            seen = list(distinct.values())
        return seen

    def _objects_seen(self, x: int, y: int, radius: int, same_arena: bool) -> tuple[list[tuple], list[SeenEvent]]:
        """The objects within sight as events in the look's order, with their sort keys."""
        changes = self._object_changes.get(self._sight.area_of(x, y), 0) if same_arena else None
        kept = self._object_looks.get((x, y, radius, same_arena))
        if kept is not None and same_arena and kept[0] == changes:
            return kept[1], kept[2]
        states = self._states
        seen = sorted(
            (
                SeenEvent(states.get(address) or self._idle[address], spot, distance)
                for address, spot, distance in self._sight.seen_from(x, y, radius, same_arena)
            ),
            key=_order,
        )
        keys = [_order(item) for item in seen]
        if same_arena:
            if len(self._object_looks) >= CACHED_VIEWS:
                self._object_looks.clear()
            self._object_looks[(x, y, radius, same_arena)] = (changes, keys, seen)
        return keys, seen

    # --- checkpoints --------------------------------------------------------------------------------------------

    def get_state(self) -> dict:
        """Plain JSON-able data for checkpoints: object states that are not idle, and placed agents."""
        return {
            "objects": {address: list(_fields(event)) for address, event in sorted(self._states.items())},
            "agents": {
                name: [list(tile), list(_fields(event))] for name, (tile, event) in sorted(self._agents.items())
            },
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved, replacing the current states and agents.

        Raises:
            ValueError: If the data is not in `get_state`'s shape (the message names the entry).
            UnknownAddress: If an object address is not a game object of this map.
        """
        try:
            objects = {address: Event(*fields) for address, fields in state["objects"].items()}
            agents = [(name, (tile[0], tile[1]), Event(*fields)) for name, (tile, fields) in state["agents"].items()]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(
                f"world state: expected {{'objects': {{address: [subject, predicate, object, description]}}, "
                f"'agents': {{name: [[x, y], [subject, predicate, object, description]]}}}} ({error!r})"
            ) from None
        for address in objects:
            self._object(address)
        self._states, self._agents, self._agent_arrays = objects, {}, None
        self._looks.clear()
        self._object_looks.clear()
        self._restores += 1
        for name, tile, event in agents:
            self.place_agent(name, tile, event)

    # --- helpers ------------------------------------------------------------------------------------------------

    def _object(self, address: str) -> None:
        if address not in self._idle:
            raise UnknownAddress(
                f"{address!r} is not a game object of {self.ville.world} (objects have full addresses like "
                f"'{self.ville.world}:Hobbs Cafe:cafe:piano')"
            )

    def _changed(self, *areas: int, objects: bool = False) -> None:
        """Something in these arenas changed (an object, if `objects`): the looks kept from them are stale."""
        for area in areas:
            self._changes[area] = self._changes.get(area, 0) + 1
            if objects:
                self._object_changes[area] = self._object_changes.get(area, 0) + 1

    def _agents_at(self) -> tuple[np.ndarray, np.ndarray, list[Event]]:
        """Placed agents as arrays (their tiles, their arena keys) and their events, rebuilt only after a change."""
        if self._agent_arrays is None:
            placed = list(self._agents.values())
            xy = np.array([tile for tile, _ in placed], dtype=np.int64).reshape(-1, 2)
            self._agent_arrays = (xy, area_keys(self.ville, xy), [event for _, event in placed])
            self._agents_by_area = None
        return self._agent_arrays

    def _in_area(self) -> dict[int, np.ndarray]:
        """Each arena key's rows in `_agents_at`'s arrays, ascending (rebuilt with them)."""
        areas = self._agents_at()[1]  # first: a rebuild of the arrays drops the rows kept
        if self._agents_by_area is None:
            order = np.argsort(areas, kind="stable")
            keys, starts = np.unique(areas[order], return_index=True)
            bounds = [*starts.tolist(), len(order)]
            self._agents_by_area = {
                int(key): order[start:end] for key, start, end in zip(keys.tolist(), bounds, bounds[1:], strict=False)
            }
        return self._agents_by_area


_NO_ROWS = np.zeros(0, dtype=np.int64)


def _order(item: SeenEvent) -> tuple:
    """Where an event goes in a look: nearest first, then by description, subject and tile."""
    return item.distance, item.event.description, item.event.subject, item.tile


def _fields(event: Event) -> tuple[str, str, str, str]:
    return event.subject, event.predicate, event.object, event.description
