"""One writer per run folder: an exclusive lock on `<run>/.lock`, held for the writer's life.

Two writers on one folder would both append the same events and metrics (the original had no guard). The lock is
`fcntl.flock` on a file inside the folder, so the operating system releases it when the holder exits or is killed
(a stale lock file left by a SIGKILL locks nothing); the holder writes its pid into the file so a second writer can
say who holds it. Readers (report, interview, replay) never take it: they read the last checkpoint's snapshot.
"""

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = ".lock"


class RunFolderLocked(ValueError):
    """Another process writes to this run folder; the message names its pid."""


class RunLock:
    """An exclusive lock on a run folder, taken at construction and released by `release` (or by the OS at exit).

    Args:
        root: The run folder (created if missing, so a new run can be locked before its first file is written).

    Raises:
        RunFolderLocked: If another process holds the lock.
        OSError: If the folder or its lock file cannot be created.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.path = self.root / LOCK_NAME
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(descriptor)
            os.close(descriptor)
            raise RunFolderLocked(
                f"{self.root}: another process (pid {holder}) is writing to this run folder; wait for it to end "
                f"or stop it (kill {holder}), then try again"
            ) from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        os.fsync(descriptor)
        self._descriptor: int | None = descriptor

    @property
    def held(self) -> bool:
        """Whether this object still holds the lock."""
        return self._descriptor is not None

    def release(self) -> None:
        """Release the lock (idempotent); the lock file stays, empty of meaning once unlocked."""
        if self._descriptor is not None:
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
            os.close(self._descriptor)
            self._descriptor = None


def _holder(descriptor: int) -> str:
    """The pid the holder wrote into the lock file ("unknown" if it has not written it yet)."""
    text = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
    return text if text.isdigit() else "unknown"


@contextmanager
def lock_run_folder(root: Path | str) -> Iterator[RunLock]:
    """Hold a run folder's writer lock for the `with` block.

    Raises:
        RunFolderLocked: If another process holds it.
    """
    lock = RunLock(Path(root))
    try:
        yield lock
    finally:
        lock.release()
