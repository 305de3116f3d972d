"""Shortest paths on the Ville's walkable tiles (4-connected; never through a wall).

Agents re-plan often and mostly towards a few hundred places, so the path finder keeps a distance field per
destination (a breadth-first search from the destination's tiles, computed once in C by scipy) and reads each path
off the field by descending it: a query after warm-up costs the length of the path, not a search of the map.
"""

from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import dijkstra

from environment.errors import Unreachable
from environment.ville import Tile, Ville

# Neighbour order when descending a field: the same tie-breaking every time makes paths deterministic.
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
# Distance fields kept (float32, 56 kB each for the Ville, 28 MB in all): more than the ~300 addresses of the Ville
# (222 objects, 63 arenas, 19 sectors) that agents walk to.
CACHED_FIELDS = 512


class PathFinder:
    """Shortest walkable paths between tiles of a Ville, with cached distance fields."""

    def __init__(self, ville: Ville, cached_fields: int = CACHED_FIELDS):
        """Build the walkable graph of `ville`, keeping up to `cached_fields` distance fields."""
        self.ville = ville
        self.width, self.height = ville.width, ville.height
        self._walkable = ~ville.collision
        self._graph = _grid_graph(self._walkable)
        self._fields: OrderedDict[tuple[Tile, ...], np.ndarray] = OrderedDict()
        self._capacity = cached_fields

    def distance_field(self, goals: Iterable[Tile]) -> np.ndarray:
        """Steps from every tile to the nearest walkable goal, (height, width) indexed [y, x], inf where unreachable.

        Fields are cached by the goal tiles as given (an address's tiles come sorted, so the same address hits the
        same field), the least recently used dropped first. The array is shared: do not write to it.
        """
        key = tuple((int(x), int(y)) for x, y in goals)
        field = self._fields.get(key)
        if field is not None:
            self._fields.move_to_end(key)
            return field
        sources = sorted({y * self.width + x for x, y in key if self.ville.is_walkable((x, y))})
        if sources:
            flat = dijkstra(self._graph, directed=False, unweighted=True, indices=sources, min_only=True)
            field = flat.reshape(self.height, self.width).astype(np.float32)
        else:
            field = np.full((self.height, self.width), np.inf, dtype=np.float32)
        field.flags.writeable = False
        self._fields[key] = field
        if len(self._fields) > self._capacity:
            self._fields.popitem(last=False)
        return field

    def path_to_nearest(self, start: Tile, goals: Iterable[Tile]) -> list[Tile]:
        """The shortest path from `start` to whichever goal is closest, excluding `start` ([] if on a goal).

        Ties between equally short paths are broken the same way every time (up, right, down, left first).

        Raises:
            Unreachable: If `start` is a wall or off the map, or no goal is walkable and reachable from it.
        """
        goals = list(goals)
        field = self.distance_field(goals)
        x, y = int(start[0]), int(start[1])
        if not self.ville.is_walkable((x, y)):
            raise Unreachable(f"the start {start} is a wall or off the map: no path leaves it")
        if not np.isfinite(field[y, x]):
            example = f" (e.g. {goals[0]})" if goals else ""
            raise Unreachable(f"no walkable path from {start} to any of {len(goals)} goal tiles{example}")
        path = []
        remaining = field[y, x]
        while remaining > 0:
            for dx, dy in STEPS:
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.width and 0 <= ny < self.height and field[ny, nx] == remaining - 1:
                    x, y, remaining = nx, ny, remaining - 1
                    break
            path.append((x, y))
        return path

    def path(self, start: Tile, goal: Tile) -> list[Tile]:
        """The shortest path from `start` to `goal`, excluding `start`; [] if they are the same tile.

        Raises:
            Unreachable: If `goal` cannot be reached.
        """
        return self.path_to_nearest(start, [goal])

    def distance(self, start: Tile, goal: Tile) -> int | None:
        """Steps from `start` to `goal`, or None if unreachable (a wall or off the map at either end)."""
        if not self.ville.is_walkable(start):
            return None
        value = self.distance_field([goal])[start[1], start[0]]
        return int(value) if np.isfinite(value) else None


def _grid_graph(walkable: np.ndarray) -> csr_matrix:
    """The 4-connected graph of walkable tiles as a sparse matrix over flat indices y * width + x."""
    height, width = walkable.shape
    index = np.arange(height * width).reshape(height, width)
    right = walkable[:, :-1] & walkable[:, 1:]
    down = walkable[:-1, :] & walkable[1:, :]
    rows = np.concatenate([index[:, :-1][right], index[:-1, :][down]])
    cols = np.concatenate([index[:, 1:][right], index[1:, :][down]])
    data = np.ones(len(rows) * 2)
    return coo_matrix(
        (data, (np.concatenate([rows, cols]), np.concatenate([cols, rows]))), shape=(height * width,) * 2
    ).tocsr()
