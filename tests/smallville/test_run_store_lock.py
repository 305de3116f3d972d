"""The writer's lock of a run folder: exclusive, names its holder, and freed by the OS when the holder is killed."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smallville.runs.lock import RunFolderLocked, RunLock, lock_run_folder

ROOT = Path(__file__).resolve().parents[2]
HOLD = (
    "import sys, time; from smallville.runs.lock import RunLock; "
    "RunLock(sys.argv[1]); print('held', flush=True); time.sleep(60)"
)


def test_a_second_lock_is_refused_until_the_first_is_released(tmp_path):
    with lock_run_folder(tmp_path / "run") as first:
        assert first.held
        with pytest.raises(RunFolderLocked, match=r"another process \(pid \d+\) is writing to this run folder"):
            RunLock(tmp_path / "run")
    RunLock(tmp_path / "run").release()


def test_a_killed_holder_is_named_and_its_lock_freed_by_the_os(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RunFolderLocked, match=rf"\(pid {holder.pid}\).*kill {holder.pid}"):
            RunLock(tmp_path)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    deadline = time.time() + 10
    while True:  # the kernel drops the lock as the process's files close
        try:
            lock = RunLock(tmp_path)
            break
        except RunFolderLocked:
            assert time.time() < deadline
            time.sleep(0.05)
    assert (tmp_path / ".lock").read_text().strip() != str(holder.pid)
    lock.release()
