"""Shortest paths on the Ville's walkable tiles (4-connected; never through a wall).

Agents re-plan often and mostly towards a few hundred places, so the path finder keeps a distance field per
destination (a breadth-first search from the destination's tiles, computed once in C by scipy) and reads each path
off the field by descending it: a query after warm-up costs the length of the path, not a search of the map.
"""

from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from environment.errors import Unreachable
from environment.ville import Tile, Ville

# Neighbour order when descending a field: the same tie-breaking every time makes paths deterministic.
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
# Distance fields kept (one float array of 14,000 cells each, 112 kB): more than the places 25 agents visit a day.
CACHED_FIELDS = 512


class PathFinder:
    """Shortest walkable paths between tiles of a Ville, with cached distance fields."""

    def __init__(self, ville: Ville, cached_fields: int = CACHED_FIELDS):
        self.ville = ville
        self.width, self.height = ville.width, ville.height
        self._walkable = ~ville.collision
        self._graph = _grid_graph(self._walkable)
        self._fields: OrderedDict[tuple[Tile, ...], np.ndarray] = OrderedDict()
        self._capacity = cached_fields

    def distance_field(self, goals: Iterable[Tile]) -> np.ndarray:
        """Steps from every tile to the nearest goal, (height, width), inf where none is reachable."""
        key = tuple(sorted({(int(x), int(y)) for x, y in goals if self.ville.is_walkable((x, y))}))
        field = self._fields.get(key)
        if field is not None:
            self._fields.move_to_end(key)
            return field
        if not key:
            field = np.full((self.height, self.width), np.inf)
        else:
            sources = [y * self.width + x for x, y in key]
            flat = dijkstra(self._graph, directed=False, unweighted=True, indices=sources, min_only=True)
            field = flat.reshape(self.height, self.width)
        self._fields[key] = field
        if len(self._fields) > self._capacity:
            self._fields.popitem(last=False)
        return field

    def path_to_nearest(self, start: Tile, goals: Iterable[Tile]) -> list[Tile]:
        """The shortest path from `start` to whichever goal is closest, excluding `start`.

        Raises:
            Unreachable: If no goal is walkable and reachable from `start`.
        """
        goals = list(goals)
        field = self.distance_field(goals)
        x, y = start
        if not self.ville.is_walkable(start) or not np.isfinite(field[y, x]):
            raise Unreachable(f"no walkable path from {start} to any of {len(goals)} tiles (e.g. {goals[:1]})")
        path = []
        while field[y, x] > 0:
            for dx, dy in STEPS:
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.width and 0 <= ny < self.height and field[ny, nx] == field[y, x] - 1:
                    x, y = nx, ny
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
        """Steps from `start` to `goal`, or None if unreachable."""
        value = self.distance_field([goal])[start[1], start[0]]
        return int(value) if np.isfinite(value) and self.ville.is_walkable(start) else None


def _grid_graph(walkable: np.ndarray):
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
