"""Persisting memory streams: one SQLite database per run (WAL), holding every agent's stream.

`save` appends the nodes added since the last save and updates the last-access times that changed, in one
transaction; it never rewrites a whole stream. `load` gives back exactly the same stream (ids, times, scores,
embeddings, evidence, chat lines, reflection sum). The database records the embedder's name and dimension, so
memories embedded one way are never mixed with, or retrieved by, vectors of another.
"""

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import numpy as np

from memory.stream import MemoryStream, seconds

SCHEMA = """
create table if not exists meta (key text primary key, value text not null);
create table if not exists streams (
    agent text primary key, dim integer not null, recency_decay real not null, reflection_sum integer not null,
    length integer not null
);
create table if not exists nodes (
    agent text not null, id integer not null, node text not null, accessed real not null, embedding blob not null,
    primary key (agent, id)
);
"""


class StoreError(RuntimeError):
    """A memory store that cannot be read or does not fit the run: the message names the file and the fix."""


class MemoryStore:
    """Every agent's memory stream in one SQLite file.

    Args:
        path: The database file (created if missing).
        embedder: Name of the run's embedder; checked against (or recorded in) the file when given with `dim`.
        dim: Dimension of the run's embeddings.

    Raises:
        StoreError: If the file is not a readable memory store, or was made with another embedder.
    """

    def __init__(self, path: Path | str, embedder: str | None = None, dim: int | None = None):
        self.path = Path(path)
        # A store in a folder this process cannot write (a read-only copy of a run) is read as it is: SQLite could
        # not make the files a WAL reader needs beside it, and nothing may be written there anyway.
        self.read_only = self.path.is_file() and not os.access(self.path.parent, os.W_OK | os.X_OK)
        try:
            if self.read_only:
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True)
            else:
                self._db = sqlite3.connect(self.path)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the memory store ({error}); check the folder exists") from error
        try:
            with self._guard("open"):
                if not self.read_only:
                    self._db.execute("pragma journal_mode=wal")
                    # One transaction: a process killed while the tables are made leaves all of them or none.
                    self._db.executescript(f"begin;\n{SCHEMA}\ncommit;")
                self._meta = dict(self._db.execute("select key, value from meta").fetchall())
            if embedder is not None and dim is not None:
                self.check(embedder, dim)
        except StoreError:
            self._db.close()
            raise

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a StoreError naming the file."""
        try:
            yield
        except sqlite3.Error as error:
            raise StoreError(
                f"{self.path}: {action} failed: not a readable memory store ({error}); "
                "restore the file from a copy or start a new run"
            ) from error

    # --- the run's embedder ---------------------------------------------------------------------------------------

    @property
    def embedder(self) -> str | None:
        """Name of the embedder the stored memories were made with (None before it is recorded)."""
        return self._meta.get("embedder")

    @property
    def dim(self) -> int | None:
        """Dimension of the stored embeddings (None before any is recorded)."""
        return int(self._meta["dim"]) if "dim" in self._meta else None

    def check(self, embedder: str, dim: int) -> None:
        """Record the run's embedder, or refuse one that differs from the one the stored memories were made with.

        Raises:
            StoreError: If the stored memories were embedded with another embedder or dimension.
        """
        if (self.embedder not in (None, embedder)) or (self.dim not in (None, dim)):
            raise StoreError(
                f"{self.path}: its memories were embedded with {self.embedder} ({self.dim} dimensions), not "
                f"{embedder} ({dim}); use the same embedder as the run that wrote them"
            )
        self._record({"embedder": embedder, "dim": str(dim)})

    def _record(self, values: dict[str, str]) -> None:
        new = {key: value for key, value in values.items() if key not in self._meta}
        if new:
            with self._guard("recording the embedder"), self._db:
                self._db.executemany("insert into meta (key, value) values (?, ?)", list(new.items()))
            self._meta.update(new)

    # --- streams --------------------------------------------------------------------------------------------------

    def agents(self) -> list[str]:
        """Agents with a stored stream, sorted."""
        with self._guard("listing agents"):
            return [row[0] for row in self._db.execute("select agent from streams order by agent")]

    def stored_length(self, agent: str) -> int:
        """How many of an agent's memories are stored (0 if none)."""
        with self._guard(f"reading {agent!r}"):
            row = self._db.execute("select length from streams where agent = ?", (agent,)).fetchone()
        return row[0] if row else 0

    def save(self, agent: str, stream: MemoryStream) -> None:
        """Append an agent's new nodes and its changed access times and reflection sum, in one transaction.

        Raises:
            StoreError: If the stream's dimension differs from the store's, or the store holds more memories of
                this agent than the stream (the stream was not loaded from here, or the store was not truncated).
        """
        self.save_all({agent: stream})

    def save_all(self, streams: Mapping[str, MemoryStream]) -> None:
        """`save` for several agents in one transaction.

        One write to disk per checkpoint: one per agent cost a day's 24 checkpoints 1.2 s (25 agents).

        Raises:
            StoreError: As `save`, before anything is written.
        """
        starts, dim = {}, self.dim
        for agent, stream in streams.items():
            if dim is not None and stream.dim != dim:
                raise StoreError(
                    f"{self.path}: holds {dim}-dimensional embeddings; the stream of {agent!r} has {stream.dim}; "
                    "use the same embedder as the run that wrote them"
                )
            dim = stream.dim
            start = starts[agent] = self.stored_length(agent)
            if start > len(stream):
                raise StoreError(
                    f"{self.path}: holds {start} memories of {agent!r} but the stream to save has {len(stream)}; "
                    "load the stream from this store, or truncate the store to the stream first"
                )
        if dim is not None:
            self._record({"dim": str(dim)})
        touched = {agent: stream.touched() for agent, stream in streams.items()}
        saving = f"saving {next(iter(streams))!r}" if len(streams) == 1 else f"saving {len(streams)} agents' memories"
        with self._guard(saving), self._db:
            for agent, stream in streams.items():
                self._write(agent, stream, starts[agent], touched[agent])
        for agent, stream in streams.items():
            stream.forget_touched(touched[agent])

    def _write(self, agent: str, stream: MemoryStream, start: int, touched) -> None:
        """An agent's part of a save (inside the caller's transaction)."""
        self._db.execute(
            "insert or replace into streams (agent, dim, recency_decay, reflection_sum, length) values (?, ?, ?, ?, ?)",
            (agent, stream.dim, stream.recency_decay, stream.importance_since_reflection, len(stream)),
        )
        self._db.executemany(
            "insert into nodes (agent, id, node, accessed, embedding) values (?, ?, ?, ?, ?)",
            [
                (
                    agent,
                    node_id,
                    json.dumps(stream.node(node_id).to_dict(), ensure_ascii=False),
                    seconds(stream.last_accessed(node_id)),
                    stream.embedding(node_id).tobytes(),
                )
                for node_id in range(start, len(stream))
            ],
        )
        self._db.executemany(
            "update nodes set accessed = ? where agent = ? and id = ?",
            [(seconds(stream.last_accessed(i)), agent, i) for i in sorted(touched) if i < start],
        )

    def load(self, agent: str, length: int | None = None) -> MemoryStream:
        """An agent's stream as saved (only its first `length` nodes if given, as at an earlier checkpoint).

        Raises:
            StoreError: If the agent has no stream here, the file is damaged, or its dimension is not the store's.
        """
        with self._guard(f"loading {agent!r}"):
            meta = self._db.execute(
                "select dim, recency_decay, reflection_sum, length from streams where agent = ?", (agent,)
            ).fetchone()
            if meta is None:
                known = ", ".join(self.agents()) or "none"
                raise StoreError(f"{self.path}: no memories stored for {agent!r} (stored: {known})")
            dim, decay, reflection_sum, stored = meta
            wanted = stored if length is None else min(length, stored)
            rows = self._db.execute(
                "select id, node, accessed, embedding from nodes where agent = ? and id < ? order by id",
                (agent, wanted),
            ).fetchall()
        if self.dim is not None and dim != self.dim:
            raise StoreError(f"{self.path}: {agent!r}'s memories have {dim} dimensions, the store records {self.dim}")
        if [row[0] for row in rows] != list(range(wanted)):
            raise StoreError(
                f"{self.path}: damaged memory store: {agent!r} should have memories 0-{wanted - 1}, "
                f"found {len(rows)}; restore the file from a copy or start a new run"
            )
        try:
            return MemoryStream.from_state(
                {
                    "dim": dim,
                    "recency_decay": decay,
                    "nodes": [json.loads(node) for _, node, _, _ in rows],
                    "accessed": np.array([accessed for _, _, accessed, _ in rows], dtype=np.float64),
                    "embeddings": np.array(
                        [np.frombuffer(blob, dtype=np.float32) for *_, blob in rows], dtype=np.float32
                    ).reshape(-1, dim),
                    "importance_since_reflection": reflection_sum,
                }
            )
        except (ValueError, KeyError, TypeError) as error:
            raise StoreError(f"{self.path}: damaged memories of {agent!r} ({error})") from error

    def rewind(self, agent: str, accessed: np.ndarray, reflection_sum: int) -> None:
        """Put back an agent's access times and reflection sum as they were at an earlier checkpoint.

        `save` updates both in place, so a store truncated to an earlier checkpoint's lengths still holds the later
        values; a kept checkpoint (a fork's starting point) saves them to rewind with. Truncate first.

        Raises:
            StoreError: If the store holds another number of memories of this agent than `accessed` gives.
        """
        if self.stored_length(agent) != len(accessed):
            raise StoreError(
                f"{self.path}: holds {self.stored_length(agent)} memories of {agent!r}, the checkpoint "
                f"{len(accessed)}; truncate the store to the checkpoint first"
            )
        with self._guard(f"rewinding {agent!r}"), self._db:
            self._db.executemany(
                "update nodes set accessed = ? where agent = ? and id = ?",
                [(float(value), agent, node_id) for node_id, value in enumerate(accessed)],
            )
            self._db.execute("update streams set reflection_sum = ? where agent = ?", (int(reflection_sum), agent))

    def truncate(self, lengths: dict[str, int]) -> None:
        """Drop each agent's nodes past its length (written after the checkpoint being resumed)."""
        with self._guard("truncating"), self._db:
            for agent, length in lengths.items():
                self._db.execute("delete from nodes where agent = ? and id >= ?", (agent, length))
                self._db.execute("update streams set length = min(length, ?) where agent = ?", (length, agent))

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> "MemoryStore":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
