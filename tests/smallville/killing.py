"""Killing a command at a chosen moment: in a child forked from the test process, SIGKILL at the n-th call of a
function, or at the n-th write the command makes.

A forked child has the test's imports already done (a `run.py` process spends seconds importing), and SIGKILL leaves
the folders as a power cut would: no `finally`, no lock released by hand, no file closed. The writes counted are the
file system's doors every command goes through: a file opened to write, a rename, a flush to disk, a copy, a SQLite
connection (a database written between two of them is not counted: its commit is atomic in SQLite).
"""

import builtins
import importlib
import io
import os
import shutil
import signal
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from smallville.cli import main

# (module, attribute) of each write door; `open` is patched in builtins and io (pathlib opens with io.open).
WRITE_DOORS = ((os, "replace"), (os, "fsync"), (shutil, "copyfile"), (sqlite3, "connect"), (builtins, "open"))


def _writing(name: str, args: tuple, kwargs: dict) -> bool:
    if name != "open":
        return True
    mode = args[1] if len(args) > 1 else kwargs.get("mode", "r")
    return any(letter in str(mode) for letter in "wax+")


@contextmanager
def counting_writes(on_write: Callable[[int], None]) -> Iterator[list[int]]:
    """Within the block, `on_write(n)` is called before the n-th write (1-based); yields [writes so far]."""
    count = [0]
    saved = [(owner, name, getattr(owner, name)) for owner, name in WRITE_DOORS]
    saved.append((io, "open", io.open))

    def wrap(name: str, original):
        def door(*args, **kwargs):
            if _writing(name, args, kwargs):
                count[0] += 1
                on_write(count[0])
            return original(*args, **kwargs)

        return door

    for owner, name, original in saved:
        setattr(owner, name, wrap(name, original))
    try:
        yield count
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def writes_of(argv: list[str]) -> int:
    """Run a command in this process, counting its writes; it must succeed. Returns how many it made."""
    with counting_writes(lambda _: None) as count:
        assert main(argv) == 0
    return count[0]


def log_outcome(line: str) -> None:
    """Print a kill's outcome, and append it to $SMALLVILLE_KILL_LOG if set (xdist's workers print nowhere)."""
    print(line)
    path = os.environ.get("SMALLVILLE_KILL_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(line + "\n")


def _die(_=None) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _patch_call(target: str, nth: int) -> None:
    """Make the function at "module:name" or "module:Class.name" kill the process at its n-th call."""
    module_name, _, path = target.partition(":")
    owner = importlib.import_module(module_name)
    *parents, name = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    original = getattr(owner, name)
    calls = [0]

    def killing(*args, **kwargs):
        calls[0] += 1
        if calls[0] == nth:
            _die()
        return original(*args, **kwargs)

    setattr(owner, name, killing)


def run_killed(
    argv: list[str],
    *,
    at_write: int | None = None,
    at_call: tuple[str, int] | None = None,
    after_s: float | None = None,
) -> bool:
    """Run a command in a forked child killed at its `at_write`-th write, the n-th call of `at_call`'s function, or
    `after_s` seconds after it started (then with every process it started, as a power cut would).

    Returns whether it was killed (False: it ended first, with exit 0).
    """
    with warnings.catch_warnings():  # the test process's threads (xdist's, a thread pool) are not used in the child
        warnings.simplefilter("ignore", DeprecationWarning)
        child = os.fork()
    if child == 0:  # pragma: no cover - the child
        code = 70
        try:
            os.setpgid(0, 0)  # its own process group: the workers it starts are killed with it
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            if at_call is not None:
                _patch_call(*at_call)
            if at_write is not None:
                with counting_writes(lambda n: _die() if n == at_write else None):
                    code = main(argv)
            else:
                code = main(argv)
        finally:
            os._exit(code if isinstance(code, int) else 70)
    started = time.time()
    deadline = started + 240
    while True:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            break
        if after_s is not None and time.time() - started >= after_s:
            os.killpg(child, signal.SIGKILL)
            os.waitpid(child, 0)
            return True
        if time.time() > deadline:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            raise AssertionError(f"{argv[0]} did not end in 240 s")
        time.sleep(0.02)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, f"{argv}: exit {os.WEXITSTATUS(status)}"
    return False
