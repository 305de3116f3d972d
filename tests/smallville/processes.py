"""`run.py` as a process, for the tests that kill, signal or race one: start it, run it to its end, wait for a
condition, and read how far its checkpoint has come."""

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start(*args: str) -> subprocess.Popen:
    """`run.py ARGS` started from the repository's root, its output piped as text."""
    return subprocess.Popen(
        [sys.executable, "run.py", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`run.py ARGS` run to its end (within `timeout` seconds), its output captured as text; never raises on exit."""
    command = [sys.executable, "run.py", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def _checkpoint_time(path: Path) -> str:
    """The simulated time of the checkpoint (state.json begins with it), "" while there is none (a checkpoint is
    renamed into place)."""
    try:
        with path.open() as handle:
            start = handle.read(64)
    except FileNotFoundError:
        return ""
    return start.split('"now": "', 1)[1].split('"', 1)[0] if '"now": "' in start else ""


def reached(path: Path, moment: str) -> bool:
    """Whether a checkpoint at or after `moment` was written: a quarter of an hour of the night may take less time
    than one poll, so the checkpoint at `moment` itself may be replaced before it is seen."""
    return _checkpoint_time(path) >= moment


def wait_for(condition, timeout: float = 120) -> None:
    """Poll `condition` every 20 ms until it holds; fail after `timeout` seconds."""
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)
