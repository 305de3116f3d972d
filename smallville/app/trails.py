"""Where each agent of a live town walked lately, as the page saw it: the map's trails.

A live model keeps no history of positions (its DataCollector rows are for the run folder, and reading them back
each frame would cost more than the frame), so the page notes each agent's tile whenever it draws the map at a new
simulated time and keeps the last hour or so. A replay needs none of this: its run folder has every minute.
"""

import threading
from collections import deque
from datetime import datetime, timedelta

from smallville.app.per_model import PerModel
from smallville.app.views import without_repeats

# How many notes are kept per agent: enough for an hour drawn once per step (360 steps of 10 s), whatever the speed.
KEPT = 400


class Trails:
    """The recent (time, tile) of every agent, noted at most once per simulated time."""

    def __init__(self):
        self._lock = threading.Lock()
        self._last: datetime | None = None
        self._notes: dict[str, deque[tuple[datetime, tuple[int, int]]]] = {}

    def note(self, now: datetime, tiles: dict[str, tuple[int, int]]) -> None:
        """Note where everyone stands at `now` (once per time: redraws between steps add nothing)."""
        with self._lock:
            if self._last is not None and now <= self._last:
                if now < self._last:  # the clock went back: a new town in the same model object cannot happen,
                    self._notes.clear()  # but a restored one can; start the trails again
                else:
                    return
            self._last = now
            for name, tile in tiles.items():
                self._notes.setdefault(name, deque(maxlen=KEPT)).append((now, tile))

    def since(self, start: datetime) -> dict[str, list[tuple[int, int]]]:
        """Each agent's tiles from `start` on, oldest first, standing still counted once."""
        with self._lock:
            return {
                name: without_repeats([tile for when, tile in notes if when >= start])
                for name, notes in self._notes.items()
            }

    def recent(self, now: datetime, minutes: int) -> dict[str, list[tuple[int, int]]]:
        """The trails of the last `minutes` simulated minutes."""
        return self.since(now - timedelta(minutes=minutes))


_TRAILS = PerModel(Trails)


def trails_of(model) -> Trails:
    """The trails of a live model (one per model, made on first use, gone with the model)."""
    return _TRAILS.of(model)
