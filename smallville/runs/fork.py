"""A fork's folder: a copy of a run cut back to one of its kept checkpoints, ready to go on as a run of its own.

The data files only grow, so the copy keeps what the checkpoint counts (events, calls, metric rows, memories) and
drops the rest, as a resume does; the memories' access times and reflection sums, which the memory store rewrites in
place, are put back from the kept checkpoint (runs/kept_checkpoints.py). The source is only read: its databases are
copied with SQLite's backup, which gives a consistent copy even of a run that is being written.
"""

import json
import shutil
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

from memory import MemoryStore
from smallville.runs.folder import RunFolder
from smallville.runs.identity import stamp, state_checksum
from smallville.runs.integrity import RunFolderError, read_snapshot
from smallville.runs.kept_checkpoints import kept_checkpoints, read_kept
from smallville.runs.store import RunStore

__all__ = ["fork_points", "start_fork"]


def fork_points(source: RunFolder) -> dict[datetime, Path | None]:
    """The moments a run can be forked from, oldest first: its kept checkpoints and its last one (None: no rewind)."""
    points: dict[datetime, Path | None] = dict(kept_checkpoints(source))
    snapshot = read_snapshot(source)
    if snapshot is not None and snapshot.now not in points:
        points[snapshot.now] = None
    return dict(sorted(points.items()))


def start_fork(source: RunFolder, target: Path, at: datetime, config: dict) -> RunStore:
    """Make the fork's folder at the latest fork point at or before `at`, locked; its snapshot is that point.

    Its checkpoints are marked unfinished (`store.fork_pending`) until the caller clears the mark and writes the one
    that holds the change: a fork killed before that refuses to go on, never resuming as an unchanged copy.

    Raises:
        RunFolderError: If the source has no fork point at or before `at`, or the fork cannot be written.
    """
    points = {moment: path for moment, path in fork_points(source).items() if moment <= at}
    if not points:
        raise RunFolderError(
            f"{source.root}: no checkpoint at or before {at:%Y-%m-%dT%H:%M} to fork from; simulate with "
            "--keep-checkpoints 'every 1h' to keep them"
        )
    moment, kept = max(points.items())
    if kept is None:
        state, rewind = json.loads(read_snapshot(source).path.read_text()), {}
    else:
        state, rewind = read_kept(kept)
    store = RunStore.create(target, config)
    try:
        store.memory.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store.folder.memory}{suffix}").unlink(missing_ok=True)
        _copy_files(source, store.folder, moment)
        store.memory = MemoryStore(store.folder.memory)
        store.memory.truncate(state["stream_lengths"])
        for name, (accessed, reflection_sum) in rewind.items():
            store.memory.rewind(name, accessed, reflection_sum)
        run_id = store.config()["run_id"]  # the fork's own: its copies are stamped with it
        stamp(store.folder, run_id)
        store.fork_pending = True
        state = {**state, "run_id": run_id, "fork_pending": True}
        state["checksum"] = state_checksum(state)
        store.folder.checkpoint.mkdir(exist_ok=True)
        store.folder.checkpoint_state.write_text(json.dumps(state))
        store.snapshot = read_snapshot(store.folder, making_fork=True)
    except (OSError, sqlite3.Error) as error:
        store.close()
        raise RunFolderError(
            f"{target}: cannot write the fork ({error}); free some space or give another --out"
        ) from error
    except BaseException:
        store.close()
        raise
    return store


def _copy_files(source: RunFolder, target: RunFolder, moment: datetime) -> None:
    """The databases (by SQLite backup), metrics, and the graphs and kept checkpoints up to `moment`."""
    for path, copy in ((source.events, target.events), (source.memory, target.memory)):
        if path.is_file():
            source_db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            with closing(source_db) as read, closing(sqlite3.connect(copy)) as write:
                read.backup(write)
    for path in (source.model_metrics, source.agent_metrics):
        if path.is_file():
            shutil.copyfile(path, target.metrics / path.name)
    for graph in source.graphs.glob("*.graphml"):
        if datetime.strptime(graph.stem, "%Y%m%dT%H%M%S") <= moment:
            shutil.copyfile(graph, target.graphs / graph.name)
    for when, kept in kept_checkpoints(source).items():
        if when <= moment:
            (target.checkpoint / "kept").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(kept, target.checkpoint / "kept" / kept.name)
