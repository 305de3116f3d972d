"""Kill the batch driver mid-batch (SIGKILL), run the same command again: nothing finished is repeated, and the
table equals an uninterrupted batch's."""

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from .conftest import TINY_FLAGS, comparable

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow


def _records(batch: Path) -> dict[str, dict]:
    records = {}
    for path in (batch / "cells").glob("*/cell.json"):
        try:
            records[path.parent.name] = json.loads(path.read_text())
        except json.JSONDecodeError:  # being replaced this instant
            continue
    return records


def _mid_batch(batch: Path) -> bool:
    """At least one cell finished and another one checkpointed but not finished."""
    records = _records(batch)
    done = [name for name, record in records.items() if record.get("status") == "done"]
    started = [
        name
        for name, record in records.items()
        if record.get("status") == "running" and (batch / "cells" / name / "checkpoint" / "state.json").is_file()
    ]
    return bool(done) and bool(started)


def _until_orphans_leave(batch: Path, seconds: float = 120) -> None:
    """Wait until no worker of the killed driver holds a cell's lock (smallville/batch/cell.py): an orphaned worker
    leaves at its next check of the driver, or, past its last one, finishes its cell first. Only then does the
    folder say what the killed batch left."""
    deadline = time.monotonic() + seconds
    for lock in (batch / "cells").glob(".*.lock"):
        with lock.open("a") as handle:
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    assert time.monotonic() < deadline, f"a worker of the killed driver still holds {lock.name}"
                    time.sleep(0.05)
            fcntl.flock(handle, fcntl.LOCK_UN)


def test_a_killed_batch_resumes_to_the_uninterrupted_result(tmp_path, local_table):
    batch = tmp_path / "batch"
    command = [sys.executable, str(ROOT / "run.py"), "batch", *TINY_FLAGS, "--workers", "1", "--out", str(batch)]
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    driver = subprocess.Popen(
        command, cwd=tmp_path, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while not _mid_batch(batch):
            assert driver.poll() is None, "the batch ended before it could be killed mid-way"
            assert time.monotonic() < deadline, "the batch never reached a finished and a running cell"
            time.sleep(0.02)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
        _until_orphans_leave(batch)
        before = _records(batch)
        finished = {name for name, record in before.items() if record.get("status") == "done"}
        interrupted = {name for name, record in before.items() if record.get("status") == "running"}
        ledgers = {name: (batch / "cells" / name / "ledger.json").stat().st_mtime_ns for name in finished}

        again = subprocess.run(
            command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600, check=False
        )
        assert again.returncode == 0, again.stderr[-2000:]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)  # any worker the killed driver left behind

    after = _records(batch)
    assert all(record["status"] == "done" for record in after.values()) and len(after) == 4
    for name in finished:  # not repeated
        assert after[name]["sessions"] == 1
        assert (batch / "cells" / name / "ledger.json").stat().st_mtime_ns == ledgers[name]
    for name in interrupted:  # resumed from its checkpoint, not started over
        assert after[name]["sessions"] == 2
    assert f"{len(finished)} of 4 cells finished before" in again.stderr
    pd.testing.assert_frame_equal(comparable(pd.read_csv(batch / "results.csv")), comparable(local_table))
