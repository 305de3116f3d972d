"""What a tile's vision square holds of the map's objects: which objects, at which of their tiles, how far.

Objects never move, so what a viewer tile sees of them is computed once (with numpy over every object tile at
once) and kept; only their states change, and WorldState reads those at each look. 25 agents look every step
of 10 simulated seconds (216,000 looks a day), mostly from the few tiles where they sit.
"""

import numpy as np

from environment.ville import Tile, Ville

# Viewer tiles remembered before the memory starts afresh: the Ville has 14,000 tiles, and agents look from a
# few hundred of them in a day; the bound only guards against unusual radii or maps.
CACHED_VIEWS = 50_000

type ObjectView = tuple[tuple[str, Tile, float], ...]

_NO_ROWS = np.zeros(0, dtype=np.int64)


class ObjectSight:
    """The objects within sight of a tile: (address, nearest tile, euclidean distance), nearest first."""

    def __init__(self, ville: Ville):
        """Index every object tile of `ville` by position, object and arena."""
        self.ville = ville
        self._xy, self._number = ville.object_tiles()
        self._area = area_keys(ville, self._xy)
        self._address = {int(n): ville.object_address(int(n)) for n in np.unique(self._number)}
        self._views: dict[tuple[int, int, int, bool], ObjectView] = {}
        self._areas: dict[str, set[int]] = {}
        for number, area in zip(self._number.tolist(), self._area.tolist(), strict=True):
            self._areas.setdefault(self._address[number], set()).add(area)
        # Each arena key's object tiles (rows, ascending): a look within an arena reads only them, not every object
        # tile of the town (at 1,000 people a walker's look from a new tile otherwise scans 20 times the Ville's).
        order = np.argsort(self._area, kind="stable")
        keys, starts = np.unique(self._area[order], return_index=True)
        bounds = [*starts.tolist(), len(order)]
        self._rows_in = {int(key): order[a:b] for key, a, b in zip(keys.tolist(), bounds, bounds[1:], strict=False)}

    def areas_of(self, address: str) -> set[int]:
        """The arena keys of an object's tiles (one, unless an object straddles arenas)."""
        return self._areas.get(address, set())

    def area_of(self, x: int, y: int) -> int:
        """The arena key of one tile (see `area_keys`)."""
        arena = int(self.ville.arena_index[y, x])
        return arena if arena else -int(self.ville.sector_index[y, x])

    def seen_from(self, x: int, y: int, radius: int, same_arena: bool) -> ObjectView:
        """The objects seen from (x, y), sorted by (distance, address).

        Each object within the square of +-radius tiles, in the viewer's arena if `same_arena`, appears once at
        its nearest tile (ties go to the first tile in row-major order).
        """
        key = (x, y, radius, same_arena)
        view = self._views.get(key)
        if view is None:
            view = self._look(x, y, radius, same_arena)
            if len(self._views) >= CACHED_VIEWS:
                self._views.clear()
            self._views[key] = view
        return view

    def _look(self, x: int, y: int, radius: int, same_arena: bool) -> ObjectView:
        xy, numbers = self._xy, self._number
        rows = self._rows_in.get(self.area_of(x, y), _NO_ROWS) if same_arena else np.arange(len(numbers))
        near = xy[rows]
        found = rows[(np.abs(near[:, 0] - x) <= radius) & (np.abs(near[:, 1] - y) <= radius)]
        distances = np.hypot(xy[found, 0] - x, xy[found, 1] - y)
        # Order by (object, distance, row-major position) and keep the first tile of each object.
        order = np.lexsort((found, distances, numbers[found]))
        found, distances = found[order], distances[order]
        _, first = np.unique(numbers[found], return_index=True)
        view = [
            (self._address[int(numbers[i])], (int(xy[i, 0]), int(xy[i, 1])), float(distance))
            for i, distance in zip(found[first], distances[first], strict=True)
        ]
        return tuple(sorted(view, key=lambda item: (item[2], item[0])))


def area_keys(ville: Ville, xy: np.ndarray) -> np.ndarray:
    """An arena key per (x, y) row, so that "in the same arena" is one integer comparison.

    The key is the tile's arena number, or minus its sector number where it has no arena, or 0 off the tree.
    """
    xs, ys = xy[:, 0], xy[:, 1]
    arena = ville.arena_index[ys, xs]
    return np.where(arena > 0, arena, -ville.sector_index[ys, xs])
