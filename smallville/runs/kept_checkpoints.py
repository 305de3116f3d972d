"""Checkpoints a run keeps for forks (`--keep-checkpoints every 1h|TIMES`): the moments a "what if" can start from.

A run folder's data files only grow, so a checkpoint plus the counts it records (events, calls, metric rows, memories
per agent) is the whole run at its moment, save for two things `MemoryStore.save` rewrites in place: each memory's
last access and each agent's importance since its last reflection. A kept checkpoint is `state.json` as written at its
moment with those two added, in checkpoint/kept/<time>.json; a fork copies the run, cuts the files back to the counts
and rewinds the two (smallville/runs/fork.py). The start is always kept, so a run can be forked at any time of it.
"""

import base64
import json
import os
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from smallville.runs.folder import RunFolder
from smallville.settings.keep_schedule import KeepSchedule

__all__ = ["Keeper", "kept_checkpoints", "read_kept", "write_kept"]


class Keeper:
    """Keeps a run's checkpoints on its schedule, called after every step (and once before the first).

    Args:
        schedule: When to keep.
        store: The run's RunStore (a checkpoint is written first if the last one is not at this moment).
        model: The run's model.
    """

    def __init__(self, schedule: KeepSchedule, store, model):
        self.schedule, self.store, self.model = schedule, store, model
        self.next = schedule.next_at_or_after(model.start, model.now)

    def __call__(self) -> None:
        """Keep the checkpoint of this moment if one is due (a moment between steps: at the first step after it)."""
        now = self.model.now
        if self.next is None or now < self.next:
            return
        if self.store.snapshot is None or self.store.snapshot.now != now:
            self.store.checkpoint(self.model)
        write_kept(self.store.folder, self.store.snapshot.state, self.model)
        self.next = self.schedule.next_at_or_after(self.model.start, now + timedelta(microseconds=1))


def _kept_path(folder: RunFolder, now: datetime) -> Path:
    return folder.checkpoint / "kept" / f"{now:%Y%m%dT%H%M%S}.json"


def write_kept(folder: RunFolder, state: dict, model) -> Path:
    """Keep the checkpoint just written (`state`), with the memories' access times and reflection sums, atomically."""
    memory = {
        agent.name: {
            "accessed": base64.b64encode(agent.memories.stream.access_times().astype("<f8").tobytes()).decode(),
            "reflection_sum": agent.memories.stream.importance_since_reflection,
        }
        for agent in model.people
    }
    path = _kept_path(folder, datetime.fromisoformat(state["now"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({**state, "memory": memory}))
    os.replace(temporary, path)
    return path


def kept_checkpoints(folder: RunFolder) -> dict[datetime, Path]:
    """The run's kept checkpoints by their moment, oldest first."""
    directory = folder.checkpoint / "kept"
    found = {datetime.strptime(path.stem, "%Y%m%dT%H%M%S"): path for path in directory.glob("*.json")}
    return dict(sorted(found.items()))


def read_kept(path: Path) -> tuple[dict, dict[str, tuple[np.ndarray, int]]]:
    """A kept checkpoint: its state.json part, and per agent its access times and reflection sum."""
    data = json.loads(path.read_text())
    memory = data.pop("memory")
    rewind = {
        name: (np.frombuffer(base64.b64decode(item["accessed"]), dtype="<f8"), int(item["reflection_sum"]))
        for name, item in memory.items()
    }
    return data, rewind
