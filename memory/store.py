"""Persisting memory streams: one SQLite database per run (WAL), holding every agent's stream.

`save` appends the nodes added since the last save and updates the last-access times that changed; it never
rewrites a whole stream. `load` gives back exactly the same stream (ids, times, scores, embeddings, evidence).
"""

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import numpy as np

from memory.stream import EPOCH, MemoryStream

SCHEMA = """
create table if not exists meta (key text primary key, value text not null);
create table if not exists streams (
    agent text primary key, dim integer not null, recency_decay real not null, reflection_sum integer not null
);
create table if not exists nodes (
    agent text not null, id integer not null, node text not null, accessed real not null, embedding blob not null,
    primary key (agent, id)
);
"""


class StoreError(RuntimeError):
    """A memory store that cannot be read or does not fit: the message names the file."""


class MemoryStore:
    """Every agent's memory stream in one SQLite file."""

    def __init__(self, path: Path, embedder: str | None = None, dim: int | None = None):
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.execute("pragma journal_mode=wal")
            self._db.executescript(SCHEMA)
            meta = dict(self._db.execute("select key, value from meta").fetchall())
        except sqlite3.DatabaseError as error:
            raise StoreError(
                f"{self.path}: not a readable memory store ({error}); remove or restore the file"
            ) from error
        self._meta = meta
        if embedder is not None and dim is not None:
            self.check(embedder, dim)
        self._saved: dict[str, int] = {}

    def check(self, embedder: str, dim: int) -> None:
        """Record the run's embedder, or refuse one that differs from the one the stored memories were made with.

        Raises:
            StoreError: If the stored memories were embedded otherwise.
        """
        meta = self._meta
        if meta and (meta.get("embedder") != embedder or int(meta.get("dim", dim)) != dim):
            raise StoreError(
                f"{self.path}: its memories were embedded with {meta.get('embedder')} ({meta.get('dim')} "
                f"dimensions), not {embedder} ({dim}); use the same embedder as the run"
            )
        if not meta:
            with self._db:
                self._db.executemany(
                    "insert into meta (key, value) values (?, ?)", [("embedder", embedder), ("dim", str(dim))]
                )
            self._meta = {"embedder": embedder, "dim": str(dim)}

    def agents(self) -> list[str]:
        """Agents with a stored stream."""
        return [row[0] for row in self._db.execute("select agent from streams order by agent")]

    def save(self, agent: str, stream: MemoryStream) -> None:
        """Append new nodes and changed access times of one agent's stream."""
        start = self._saved.get(agent)
        if start is None:
            row = self._db.execute("select count(*) from nodes where agent = ?", (agent,)).fetchone()
            start = row[0]
        touched = sorted(i for i in stream.pop_touched() if i < start)
        with self._db:
            self._db.execute(
                "insert or replace into streams (agent, dim, recency_decay, reflection_sum) values (?, ?, ?, ?)",
                (agent, stream.dim, stream.recency_decay, stream.importance_since_reflection),
            )
            self._db.executemany(
                "insert into nodes (agent, id, node, accessed, embedding) values (?, ?, ?, ?, ?)",
                [
                    (
                        agent,
                        node_id,
                        json.dumps(stream.node(node_id).to_dict()),
                        _seconds(stream, node_id),
                        stream.embedding(node_id).astype(np.float32).tobytes(),
                    )
                    for node_id in range(start, len(stream))
                ],
            )
            self._db.executemany(
                "update nodes set accessed = ? where agent = ? and id = ?",
                [(_seconds(stream, node_id), agent, node_id) for node_id in touched],
            )
        self._saved[agent] = len(stream)

    def load(self, agent: str, length: int | None = None) -> MemoryStream:
        """An agent's stream as saved (its first `length` nodes if given).

        Raises:
            StoreError: If the agent has no stream here or the file is damaged.
        """
        try:
            meta = self._db.execute(
                "select dim, recency_decay, reflection_sum from streams where agent = ?", (agent,)
            ).fetchone()
            if meta is None:
                raise StoreError(f"{self.path}: no memories stored for {agent!r}")
            rows = self._db.execute(
                "select node, accessed, embedding from nodes where agent = ? and id < ? order by id",
                (agent, length if length is not None else 2**62),
            ).fetchall()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: damaged memory store ({error})") from error
        dim, decay, reflection_sum = meta
        try:
            state = {
                "dim": dim,
                "recency_decay": decay,
                "nodes": [json.loads(node) for node, _, _ in rows],
                "accessed": np.array([accessed for _, accessed, _ in rows]),
                "embeddings": np.array([np.frombuffer(blob, dtype=np.float32) for _, _, blob in rows]).reshape(-1, dim),
                "importance_since_reflection": reflection_sum,
            }
            stream = MemoryStream.from_state(state)
        except (ValueError, KeyError, json.JSONDecodeError) as error:
            raise StoreError(f"{self.path}: damaged memories of {agent!r} ({error})") from error
        self._saved[agent] = len(stream)
        return stream

    def truncate(self, lengths: dict[str, int]) -> None:
        """Drop nodes past each agent's length (written after the checkpoint they belong to)."""
        with self._db:
            for agent, length in lengths.items():
                self._db.execute("delete from nodes where agent = ? and id >= ?", (agent, length))
                self._saved[agent] = min(self._saved.get(agent, length), length)

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _seconds(stream: MemoryStream, node_id: int) -> float:
    return (stream.last_accessed(node_id) - EPOCH) / timedelta(seconds=1)
