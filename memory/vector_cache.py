"""Vectors kept on disk by embedder and text, so a later run, or a batch's other processes, encode only new texts.

MiniLM spends most of an offline day encoding (about 2,000 distinct texts a day, each alone), and most of those
texts (the personas' seeds, plans, the same sights) come again in the next run of the same town. A vector is a
function of its embedder and its text alone (the encoders here encode each text alone), so a kept vector is the one
a fresh encoding would give, and a run that reads them replays exactly. SQLite in WAL mode with a busy timeout, like
the response cache, so the cells of a batch can share one file.
"""

import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np

SCHEMA = """
create table if not exists vectors (
    embedder text not null, text text not null, vector blob not null, primary key (embedder, text)
) without rowid
"""
# Texts looked up in one query (SQLite's default limit on bound parameters is far above this).
LOOKUP_CHUNK = 500


class VectorCacheError(ValueError):
    """The file cannot serve as a vector cache; the message names it and the fix."""


class VectorCache:
    """float32 vectors by (embedder, text) in one SQLite file shared by runs and processes.

    Raises:
        VectorCacheError: If the file is not a SQLite database or cannot be written.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            self._db.execute("pragma journal_mode=wal")
            self._db.execute("pragma busy_timeout=30000")
            # A commit per batch of vectors; without a sync each (WAL keeps the file sound; a crash loses at most the
            # newest vectors, which are encoded again).
            self._db.execute("pragma synchronous=normal")
            self._db.execute(SCHEMA)
            self._db.commit()
        except (sqlite3.DatabaseError, OSError) as error:
            raise VectorCacheError(
                f"{self.path}: cannot keep embeddings there ({error}); delete the file or choose another "
                "--embedding-cache"
            ) from None

    def get_many(self, embedder: str, dim: int, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The kept vectors of those texts that have one (of the right length)."""
        wanted = list(dict.fromkeys(texts))
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(wanted), LOOKUP_CHUNK):
                chunk = wanted[start : start + LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"select text, vector from vectors where embedder = ? and text in ({marks})",
                    (embedder, *chunk),
                ).fetchall()
                for text, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape == (dim,):
                        found[text] = vector.copy()
        return found

    def put_many(self, embedder: str, vectors: dict[str, np.ndarray]) -> None:
        """Keep vectors (the first one kept wins when two processes race: both are the same)."""
        rows = [(embedder, text, np.asarray(vector, dtype=np.float32).tobytes()) for text, vector in vectors.items()]
        if not rows:
            return
        with self._lock, self._db:
            self._db.executemany("insert or ignore into vectors values (?, ?, ?)", rows)
