"""One trip's search: exact steps to the goals on every tile a shortest path from the start can use.

PathFinder (paths.py) reads a path off a distance field to the goals, descending one step at a time and taking the
first neighbour (up, right, down, left) one step nearer. A field of a whole big map costs a search of the map and
memory per destination; at 1,000 people, whose homes and workplaces are a thousand destinations, most trips missed
the fields kept and paid a search of the whole map (scipy's, 0.7 ms of set-up for 50,000 tiles before any step).

This search runs A* backwards, from the goals towards the one start, with the Manhattan distance to the start as
its (consistent) estimate, and settles every tile whose steps-to-goals plus estimate is at most the trip's length D.
A tile one step nearer the goals than a tile of the path lies on a shortest path, so its steps plus estimate is at
most D: the descent reads exactly the steps it would read on the whole field, and the path is the same tile for
tile. What it settles is the corridor of shortest paths between start and goals, not a disc around the goals; on a
street map that is a few dozen tiles for most trips.
"""

import numpy as np


class Corridor:
    """Searches of one walkable grid, flat indices y * width + x."""

    def __init__(self, walkable: np.ndarray):
        """Each walkable tile's walkable neighbours, up, right, down, left (the descent's order)."""
        height, width = walkable.shape
        self.width = width
        index = np.arange(height * width).reshape(height, width)
        table = np.full((height, width, 4), -1, dtype=np.int64)
        table[1:, :, 0] = np.where(walkable[:-1, :], index[:-1, :], -1)  # up: (x, y - 1)
        table[:, :-1, 1] = np.where(walkable[:, 1:], index[:, 1:], -1)  # right
        table[:-1, :, 2] = np.where(walkable[1:, :], index[1:, :], -1)  # down
        table[:, 1:, 3] = np.where(walkable[:, :-1], index[:, :-1], -1)  # left
        self._neighbours = [
            tuple(n for n in row if n >= 0) if open_ else ()
            for row, open_ in zip(table.reshape(-1, 4).tolist(), walkable.ravel().tolist(), strict=True)
        ]
        self._xs = (index % width).ravel().tolist()
        self._ys = (index // width).ravel().tolist()

    def path(self, start: int, sources: list[int], most: int) -> list[tuple[int, int]] | None:
        """The descent's path from `start` to the nearest of `sources` (walkable, in start's connected part).

        None when the search would settle more than `most` tiles (a long detour: a field over the map is cheaper).
        """
        steps = self._steps(start, sources, most)
        if steps is None:
            return None
        neighbours, width = self._neighbours, self.width
        here, remaining, path = start, steps[start], []
        while remaining > 0:
            remaining -= 1
            here = next(n for n in neighbours[here] if steps.get(n) == remaining)
            path.append((here % width, here // width))
        return path

    def _steps(self, start: int, sources: list[int], most: int) -> dict[int, int] | None:
        """Steps to the sources, exact on every tile of estimate-plus-steps at most the trip's length.

        Tiles wait in buckets by steps plus estimate. A step changes the Manhattan estimate by exactly one, so a
        neighbour goes to the bucket being emptied (a step towards the start) or the one two above (away from it).
        A tile whose steps were lowered after it was queued is skipped where its old bucket meets it.
        """
        xs, ys, neighbours = self._xs, self._ys, self._neighbours
        sx, sy = xs[start], ys[start]
        steps: dict[int, int] = {}
        buckets: dict[int, list[int]] = {}
        for source in sources:
            if source not in steps:
                steps[source] = 0
                buckets.setdefault(abs(xs[source] - sx) + abs(ys[source] - sy), []).append(source)
        bound, last = min(buckets), max(buckets)
        settled, length = 0, None
        get = steps.get
        while length is None and bound <= last:
            bucket = buckets.pop(bound, None)
            if bucket is None:
                bound += 1
                continue
            away = buckets.setdefault(bound + 2, [])
            last = max(last, bound + 2)
            while bucket:
                tile = bucket.pop()
                estimate = abs(xs[tile] - sx) + abs(ys[tile] - sy)
                done = steps[tile]
                if done + estimate != bound:
                    continue  # queued again since, with fewer steps
                settled += 1
                if settled > most:
                    return None
                if tile == start:
                    length = bound  # the rest of this bucket is settled too: every tile of bound <= D
                further = done + 1
                for n in neighbours[tile]:
                    if get(n, further + 1) > further:
                        steps[n] = further
                        if abs(xs[n] - sx) + abs(ys[n] - sy) < estimate:
                            bucket.append(n)
                        else:
                            away.append(n)
            bound += 1
        return steps if length is not None else None
