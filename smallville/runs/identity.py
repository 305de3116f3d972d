"""What a run folder's files say about themselves: which run they belong to, and digests of what a checkpoint covers.

SQLite's own check finds a damaged page, not a changed value: flipped bytes inside a memory's text or embedding, or
a whole file copied in from another run folder, were resumed as if they were the run's own. So each run has an id
(config.json's `run_id`), stamped into events.sqlite (table `run`) and memory.sqlite (table `meta`); and each
checkpoint records, beside its counts, a digest of the rows they cover: the events, the model calls, and per agent the
memories (text and embedding: their access times are rewritten in place, so they are left out) and a checksum of
itself. A digest is a chain, one SHA-256 per row over the one before, so a checkpoint extends its predecessor's over
the rows added since (cheap), and a reader checks it by recomputing it over the file (one pass).
"""

import hashlib
import json
import sqlite3
import uuid
from collections.abc import Iterable
from contextlib import closing

from smallville.runs.diagnosis import read_only_uri
from smallville.runs.folder import CALL_COLUMNS, RunFolder, has_table

__all__ = ["check_stamps", "extend_digests", "new_run_id", "stamp", "stamped_id", "state_checksum", "verify_digests"]

EVENT_ROW = "time, agent, kind, text, details"


def new_run_id() -> str:
    """A new run's id (a fork gets its own)."""
    return uuid.uuid4().hex


def state_checksum(state: dict) -> str:
    """A checkpoint's checksum: SHA-256 of its JSON without the checksum (json.dumps gives back the same text)."""
    body = {key: value for key, value in state.items() if key != "checksum"}
    return hashlib.sha256(json.dumps(body).encode()).hexdigest()


def _chain(digest: str, rows: Iterable[bytes]) -> str:
    value = bytes.fromhex(digest)
    for row in rows:
        value = hashlib.sha256(value + row).digest()
    return value.hex()


def _text_row(row: tuple) -> bytes:
    return "\x1f".join("" if value is None else str(value) for value in row).encode()


def _memory_row(row: tuple) -> bytes:
    return row[0].encode() + b"\x1f" + bytes(row[1])


def _connect(path) -> sqlite3.Connection:
    return sqlite3.connect(read_only_uri(path), uri=True, timeout=30)


def extend_digests(folder: RunFolder, state: dict, since: dict | None) -> dict:
    """The digests of what `state` covers, extending those of the checkpoint `since` (None: from the start).

    `since` must be a checkpoint of the same files whose rows are still there (the one a run continued from).
    """
    old = since.get("digests") if since else None
    if old is None:
        since = {"events": 0, "calls": 0, "stream_lengths": {}}
        old = {"events": "", "calls": "", "memory": {}}
    digests = {"events": old["events"], "calls": old["calls"], "memory": {}}
    if folder.events.is_file():
        with closing(_connect(folder.events)) as db:
            if has_table(db, "events"):
                rows = db.execute(
                    f"select {EVENT_ROW} from events where id > ? and id <= ? order by id",
                    (since["events"], state["events"]),
                )
                digests["events"] = _chain(old["events"], map(_text_row, rows))
            if has_table(db, "calls"):
                rows = db.execute(
                    f"select {', '.join(CALL_COLUMNS)} from calls where id > ? and id <= ? order by id",
                    (since.get("calls") or 0, state.get("calls") or 0),
                )
                digests["calls"] = _chain(old["calls"], map(_text_row, rows))
    if not folder.memory.is_file():
        return digests
    with closing(_connect(folder.memory)) as db:
        for agent, length in state["stream_lengths"].items():
            start = since["stream_lengths"].get(agent, 0)
            rows = db.execute(
                "select node, embedding from nodes where agent = ? and id >= ? and id < ? order by id",
                (agent, start, length),
            )
            digests["memory"][agent] = _chain(old["memory"].get(agent, ""), map(_memory_row, rows))
    return digests


def verify_digests(folder: RunFolder, state: dict) -> str:
    """What differs from the checkpoint's digests, naming the file (and agent); "" if the files hold what they say."""
    recorded = state.get("digests")
    if recorded is None:  # a checkpoint written before digests
        return ""
    found = extend_digests(folder, state, None)
    cause = "damaged, or copied in from another run folder"
    if found["events"] != recorded["events"]:
        return f"{folder.events}: its first {state['events']} events differ from what the checkpoint recorded ({cause})"
    if found["calls"] != recorded["calls"]:
        return f"{folder.events}: its model calls differ from what the checkpoint recorded ({cause})"
    for agent, digest in recorded["memory"].items():
        if found["memory"].get(agent) != digest:
            return f"{folder.memory}: the memories of {agent!r} differ from what the checkpoint recorded ({cause})"
    return ""


def stamp(folder: RunFolder, run_id: str) -> None:
    """Write the run's id into its two databases (a fork's copies get the fork's)."""
    with closing(sqlite3.connect(folder.events, timeout=30)) as db, db:
        db.execute("create table if not exists run (key text primary key, value text not null)")
        db.execute("insert or replace into run (key, value) values ('run_id', ?)", (run_id,))
    with closing(sqlite3.connect(folder.memory, timeout=30)) as db, db:
        db.execute("create table if not exists meta (key text primary key, value text not null)")
        db.execute("insert or replace into meta (key, value) values ('run_id', ?)", (run_id,))


def stamped_id(path, table: str) -> str | None:
    """The run id stamped into a database (None: none, as in a file written before stamps)."""
    if not path.is_file():
        return None
    with closing(_connect(path)) as db:
        if not has_table(db, table):
            return None
        row = db.execute(f"select value from {table} where key = 'run_id'").fetchone()
    return row[0] if row else None


def check_stamps(folder: RunFolder, run_id: str | None) -> str:
    """One line naming a database of another run than `run_id`; "" if they are its own (or carry no stamp)."""
    if run_id is None:
        return ""
    for path, table in ((folder.events, "run"), (folder.memory, "meta")):
        found = stamped_id(path, table)
        if found is not None and found != run_id:
            return (
                f"{path}: belongs to another run (run id {found[:8]}; this folder's is {run_id[:8]}): a file copied in "
                f"from another run folder; put back this run's own file, or start a new run"
            )
    return ""
