"""What really went wrong with a file: permission, a full disk, a missing folder, a file in the way, a lock, or damage.

SQLite and the operating system report these in their own words ("attempt to write a readonly database", "unable
to open database file", errno 28), and a reader that took every failure for damage told a user whose folder was only
read-only to restore an intact file from a copy. `diagnose` names the cause and its fix from the error and the file's
own state (can this process write to it, to its folder?), so every door says the same thing for the same fault.
"""

import errno
import os
import sqlite3
from pathlib import Path

__all__ = ["diagnose", "explain", "needs_recovery", "read_only_uri", "writable"]

PERMISSION = (errno.EACCES, errno.EPERM, errno.EROFS)
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
# SQLite's own word for a file it may only read (opened read-only, or its folder refuses the journal). Its other
# SQLITE_READONLY_* codes (RECOVERY, CANTINIT, CANTLOCK, ROLLBACK) say a killed writer's journal awaits a writer.
READ_ONLY = ("SQLITE_READONLY", "SQLITE_READONLY_DIRECTORY")


def writable(path: Path) -> bool:
    """Whether this process may write the file (or create it, if it does not exist yet) and its folder's entries."""
    folder = path.parent if path.exists() or not path.is_dir() else path
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def needs_recovery(error: BaseException) -> bool:
    """Whether SQLite refused a read-only connection only because a killed writer left its journal to recover."""
    name = getattr(error, "sqlite_errorname", "")
    return name.startswith("SQLITE_READONLY") or "readonly database" in str(error)


def read_only_uri(path: Path) -> str:
    """The URI that opens a SQLite file for reading; in a folder this process cannot write, as it is (immutable).

    SQLite's reader of a WAL database makes files beside it; in a read-only copy of a run it cannot, and reading
    failed as "attempt to write a readonly database". Nothing can be writing there, so the file is read as it is.
    """
    return f"file:{path}?mode=ro" if writable(path) else f"file:{path}?mode=ro&immutable=1"


def diagnose(path: Path, error: BaseException, root: Path | None = None) -> tuple[str, str] | None:
    """The real cause of `error` on `path` and its fix, as (cause, fix); None if the cause is none of these.

    Args:
        path: The file the operation was on.
        error: What was raised (an OSError, a sqlite3.Error, or an error caused by one).
        root: The run folder, named in the fix for a permission fault (default: the file's folder).
    """
    cause = _root_cause(error)
    text = str(cause).lower()
    number = getattr(cause, "errno", None)
    folder = root or path.parent
    said = getattr(cause, "strerror", None) or str(cause)
    if number in FULL or "disk is full" in text or "no space left" in text:
        return said if "full" in text or "space" in text else f"{said}: no room to write", "free some disk space"
    if number == errno.ENAMETOOLONG:
        return f"a name too long for a file name ({Path(path).name[:40]}...)", "give a shorter name"
    return _in_the_way(path, number) or _access_lock_or_damage(path, cause, folder)


def _access_lock_or_damage(path: Path, cause: BaseException, folder: Path) -> tuple[str, str] | None:
    """Permission, a lock or damage, as `diagnose` says them."""
    text = str(cause).lower()
    number = getattr(cause, "errno", None)
    # SQLite says "readonly database" also of a database that only needs its journal recovered (a writer killed
    # mid-write): its error code, or else the file system, tells a permission fault, not the words.
    if number in PERMISSION or not _accessible(path) or _read_only_said(cause):
        if path.is_file() and os.access(path.parent, os.W_OK) and not os.access(path, os.R_OK | os.W_OK):
            return (
                "permission denied: the file is read-only for this user",
                f"make it writable (e.g. chmod u+rw {path})",
            )
        return (
            f"permission denied: {folder} is read-only for this user, or on a read-only disk",
            f"make it writable (e.g. chmod -R u+w {folder}), or copy the run to a folder you can write",
        )
    if "database is locked" in text or "table is locked" in text or number == errno.EAGAIN:
        return (
            "locked by another program (a database browser, another copy of this one)",
            "close that program or wait for it",
        )
    if isinstance(cause, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return f"damaged: {cause}", "restore it from a copy, or start a new run with `run.py simulate`"
    return None


def _in_the_way(path: Path, number: int | None) -> tuple[str, str] | None:
    """A file where a folder should be, a folder where a file should be, or a folder that does not exist.

    Each was said as "permission denied" (the folder cannot be written: it is not there), which sent a user to chmod.
    Told from the file system itself, whatever words the error used.
    """
    path = Path(path)
    for above in path.parents:
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                return (
                    f"{above} is a file, not a folder",
                    f"give a path inside a folder, or move the file {above} out of the way",
                )
            break
    if number == errno.EEXIST and path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder", f"move the file {path} out of the way, or give another path"
    if number == errno.EISDIR or (number in (errno.EEXIST, None) and path.is_dir() and _wants_a_file(path)):
        return f"{path} is a folder, not a file", "give the path of a file, or move the folder out of the way"
    if not path.parent.exists():
        missing = next(above for above in reversed((path, *path.parents)) if not above.exists())
        return f"the folder {missing} does not exist", f"create it (mkdir -p {path.parent}), or give another path"
    return None


def _wants_a_file(path: Path) -> bool:
    """Whether the path names a file by its suffix (a database, a table, a log)."""
    return path.suffix in {".sqlite", ".json", ".csv", ".jsonl", ".log", ".md", ".parquet", ".graphml", ".png"}


def explain(path: Path, error: BaseException, doing: str = "cannot be used", root: Path | None = None) -> str:
    """One line: "PATH: cannot be used (CAUSE); FIX", with the diagnosed cause, else the error's own words."""
    found = diagnose(path, error, root)
    if found is None:
        cause = _root_cause(error)
        return f"{path}: {doing} ({getattr(cause, 'strerror', None) or cause})"
    return f"{path}: {doing} ({found[0]}); {found[1]}"


def _accessible(path: Path) -> bool:
    """Whether the file can be read and the folder written as SQLite needs (its journal files sit beside it)."""
    if path.exists() and not os.access(path, os.R_OK):
        return False
    return writable(path)


def _read_only_said(cause: BaseException) -> bool:
    """Whether SQLite refused a write because the file is read-only to it (not for a journal left to recover)."""
    name = getattr(cause, "sqlite_errorname", None)
    return name in READ_ONLY if name else "readonly database" in str(cause).lower()


def _root_cause(error: BaseException) -> BaseException:
    """The OSError or sqlite3.Error underneath a wrapped error (StoreError, RunFolderError)."""
    seen = error
    while not isinstance(seen, OSError | sqlite3.Error) and (seen.__cause__ or seen.__context__) is not None:
        seen = seen.__cause__ or seen.__context__
    return seen if isinstance(seen, OSError | sqlite3.Error) else error
