"""Shortest paths on the Ville's walkable tiles (4-connected; never through a wall).

Agents re-plan often and mostly towards a few hundred places, so the path finder keeps a distance field per
destination (a breadth-first search from the destination's tiles, computed once in C by scipy) and reads each path
off the field by descending it: a query after warm-up costs the length of the path, not a search of the map. A
field covers only the region the destination's tiles can reach (its connected part of the map, cropped to that
part's box): on a map laid several times side by side (map_copies.py), each copy walled off, a field costs one
copy's search and memory, not the whole map's.

A trip with no field kept for it is first searched alone (corridor.py: A* from the goals towards the start, the same
path tile for tile): on a big map, whose thousand homes and workplaces outnumber the fields kept, a field per trip
cost a search of the whole map; a field is searched only for a long detour, where the trip's own search would cost
more.
"""

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from environment.corridor import Corridor
from environment.errors import Unreachable
from environment.ville import Tile, Ville

# Neighbour order when descending a field: the same tie-breaking every time makes paths deterministic.
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
# Distance fields kept (float32, 56 kB each for the Ville, 28 MB in all): more than the ~300 addresses of the Ville
# (222 objects, 63 arenas, 19 sectors) that agents walk to.
CACHED_FIELDS = 512
# Most tiles a trip's own search (corridor.py) settles before a field is searched instead (a long detour): on the
# 1,000-person town's map (50,000 walkable tiles) a field's search costs about what 1,500-3,000 settled tiles do;
# 700, 3,000 and 6,000 replayed its 9,619 trips within 10% of each other (90% settle fewer than 2,100, median 22).
CORRIDOR_TILES = 3000


@dataclass(frozen=True)
class _Region:
    """A connected part of the walkable graph: its tiles, their box, and the graph restricted to them."""

    nodes: np.ndarray  # flat indices y * width + x, sorted
    xs: np.ndarray
    ys: np.ndarray
    left: int
    top: int
    shape: tuple[int, int]  # (rows, columns) of the box
    graph: csr_matrix


@dataclass(frozen=True)
class _Field:
    """Steps to the goals over one region's box (inf where unreachable); the box starts at (left, top)."""

    left: int
    top: int
    steps: np.ndarray  # read-only, (rows, columns)
    limit: float = float("inf")  # the search stopped there: tiles farther than `limit` read inf though reachable

    def at(self, x: int, y: int) -> float:
        """Steps from tile (x, y), inf outside the box."""
        row, column = y - self.top, x - self.left
        inside = 0 <= row < self.steps.shape[0] and 0 <= column < self.steps.shape[1]
        return float(self.steps[row, column]) if inside else float("inf")


class PathFinder:
    """Shortest walkable paths between tiles of a Ville, with cached distance fields."""

    def __init__(self, ville: Ville, cached_fields: int = CACHED_FIELDS):
        """Build the walkable graph of `ville` and its connected regions, keeping up to `cached_fields` fields."""
        self.ville = ville
        self.width, self.height = ville.width, ville.height
        self._walkable = ~ville.collision
        self._graph = _grid_graph(self._walkable)
        self._labels = connected_components(self._graph, directed=False)[1]
        self._regions: dict[tuple[int, ...], _Region] = {}
        self._fields: OrderedDict[tuple[Tile, ...], _Field] = OrderedDict()
        self._capacity = cached_fields
        self._corridor: Corridor | None = None  # built at the first trip without a field kept

    def distance_field(self, goals: Iterable[Tile]) -> np.ndarray:
        """Steps from every tile to the nearest walkable goal, (height, width) indexed [y, x], inf where unreachable.

        A whole-map copy of the cached field (see `_field`), read-only.
        """
        field = self._field(goals)
        whole = np.full((self.height, self.width), np.inf, dtype=np.float32)
        rows, columns = field.steps.shape
        whole[field.top : field.top + rows, field.left : field.left + columns] = field.steps
        whole.flags.writeable = False
        return whole

    def path_to_nearest(self, start: Tile, goals: Iterable[Tile]) -> list[Tile]:
        """The shortest path from `start` to whichever goal is closest, excluding `start` ([] if on a goal).

        Ties between equally short paths are broken the same way every time (up, right, down, left first).

        Raises:
            Unreachable: If `start` is a wall or off the map, or no goal is walkable and reachable from it.
        """
        goals = list(goals)
        x, y = int(start[0]), int(start[1])
        if not self.ville.is_walkable((x, y)):
            raise Unreachable(f"the start {start} is a wall or off the map: no path leaves it")
        path = self._corridor_path(x, y, goals)
        if path is not None:
            return path
        field = self._field(goals, reach=(x, y))
        remaining = field.at(x, y)
        if not np.isfinite(remaining):
            example = f" (e.g. {goals[0]})" if goals else ""
            raise Unreachable(f"no walkable path from {start} to any of {len(goals)} goal tiles{example}")
        steps, (rows, columns) = field.steps, field.steps.shape
        x, y = x - field.left, y - field.top  # in the box's coordinates: every tile of a finite path lies in it
        path = []
        while remaining > 0:
            for dx, dy in STEPS:
                nx, ny = x + dx, y + dy
                if 0 <= nx < columns and 0 <= ny < rows and steps[ny, nx] == remaining - 1:
                    x, y, remaining = nx, ny, remaining - 1
                    break
            path.append((x + field.left, y + field.top))
        return path

    def _corridor_path(self, x: int, y: int, goals: list[Tile]) -> list[Tile] | None:
        """The path by the trip's own search (corridor.py), the same tile for tile as the field's.

        None when a field kept answers it (reading one is cheaper), when every goal is a wall or they lie apart from
        the start (the field's search says why), or when the trip is a long detour (a field is cheaper). The start
        is walkable (the caller checked).
        """
        key = tuple((int(gx), int(gy)) for gx, gy in goals)
        field = self._fields.get(key)
        if field is not None and np.isfinite(field.at(x, y)):
            return None
        sources = [gy * self.width + gx for gx, gy in key if self.ville.is_walkable((gx, gy))]
        start = y * self.width + x
        if not sources or self._labels[start] not in set(self._labels[sources].tolist()):
            return None
        if self._corridor is None:
            self._corridor = Corridor(self._walkable)
        return self._corridor.path(start, sources, CORRIDOR_TILES)

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
        value = self._field([goal], reach=(int(start[0]), int(start[1]))).at(int(start[0]), int(start[1]))
        return int(value) if np.isfinite(value) else None

    def _field(self, goals: Iterable[Tile], reach: Tile | None = None) -> _Field:
        """The distance field to the walkable goals over the box of the regions they lie in.

        Fields are cached by the goal tiles as given (an address's tiles come sorted, so the same address hits the
        same field), the least recently used dropped first. With `reach`, the search may stop once it has passed
        that tile (a path reads the field only nearer the goals than its start, so the path is the same): on a big
        map most trips are short, and a search of the whole map per destination grows with the town.
        """
        key = tuple((int(x), int(y)) for x, y in goals)
        field = self._fields.get(key)
        if field is not None and (field.limit == float("inf") or (reach is not None and np.isfinite(field.at(*reach)))):
            self._fields.move_to_end(key)
            return field
        sources = sorted({y * self.width + x for x, y in key if self.ville.is_walkable((x, y))})
        if sources:
            labels = tuple(sorted(set(self._labels[sources].tolist())))
            region = self._region(labels)
            local = np.searchsorted(region.nodes, sources)
            limit = self._first_limit(key, reach, labels)
            while True:
                field = self._search(region, local, limit)
                if limit == float("inf") or np.isfinite(field.at(*reach)):
                    break
                limit = limit * 4 if limit * 4 < region.nodes.size else float("inf")
        else:
            field = _Field(0, 0, np.full((0, 0), np.inf, dtype=np.float32))
        field.steps.flags.writeable = False
        self._fields[key] = field
        self._fields.move_to_end(key)
        if len(self._fields) > self._capacity:
            self._fields.popitem(last=False)
        return field

    def _first_limit(self, goals: tuple[Tile, ...], reach: Tile | None, labels: tuple[int, ...]) -> float:
        """How far the first search goes: past `reach` if the walk is nearly straight.

        Everywhere without a tile to reach, or when it lies in another region (unreachable: one whole search).
        """
        if reach is None or not self.ville.is_walkable(reach):
            return float("inf")
        if int(self._labels[reach[1] * self.width + reach[0]]) not in labels:
            return float("inf")
        tiles = np.asarray(goals)
        straight = int(np.min(np.abs(tiles[:, 0] - reach[0]) + np.abs(tiles[:, 1] - reach[1])))
        return float(2 * straight + 32)

    @staticmethod
    def _search(region: _Region, local: np.ndarray, limit: float) -> _Field:
        """The field from the region's nodes `local`, searched up to `limit` steps."""
        # The graph holds both directions of every edge: searched as directed, scipy skips copying it per search. Its
        # weights are all 1: searched as weighted, scipy skips making a graph of ones per search (the same steps).
        flat = dijkstra(region.graph, directed=True, indices=local, min_only=True, limit=limit)
        found = np.flatnonzero(flat != np.inf)
        xs, ys = region.xs[found], region.ys[found]
        left, top, shape = region.left, region.top, region.shape
        if limit != np.inf and found.size:  # cut short: only the box of the tiles reached (most first trips are short)
            left, top = int(xs.min()), int(ys.min())
            shape = (int(ys.max()) - top + 1, int(xs.max()) - left + 1)
        steps = np.full(shape, np.inf, dtype=np.float32)
        steps[ys - top, xs - left] = flat[found]
        return _Field(left, top, steps, limit)

    def _region(self, labels: tuple[int, ...]) -> _Region:
        """The connected regions with these labels as one region (kept: a map has few that people walk in)."""
        region = self._regions.get(labels)
        if region is None:
            nodes = np.flatnonzero(np.isin(self._labels, labels))
            ys, xs = np.divmod(nodes, self.width)
            left, top = int(xs.min()), int(ys.min())
            shape = (int(ys.max()) - top + 1, int(xs.max()) - left + 1)
            region = _Region(nodes, xs, ys, left, top, shape, self._graph[nodes][:, nodes])
            self._regions[labels] = region
        return region


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
