"""A response cache on disk: a repeated run costs nothing and replays exactly.

Keyed by a hash of the model, the messages and the parameters; SQLite in WAL mode with a busy timeout, so several
processes (a batch of runs) can share it. It stores answers and token counts, never a key or a header.
"""

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
create table if not exists responses (
    key text primary key, model text not null, kind text not null, text text not null,
    prompt_tokens integer not null, completion_tokens integer not null
)
"""


@dataclass(frozen=True)
class CachedResponse:
    """An answer as it was first given."""

    text: str
    prompt_tokens: int
    completion_tokens: int


def cache_key(model: str, messages: list[dict[str, str]], parameters: dict) -> str:
    """The hash that identifies a call."""
    blob = json.dumps({"model": model, "messages": messages, "parameters": parameters}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResponseCache:
    """Answers by call, in one SQLite file shared by runs."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("pragma busy_timeout=30000")
        self._db.execute(SCHEMA)
        self._db.commit()

    def get(self, key: str) -> CachedResponse | None:
        """The cached answer, if any."""
        row = self._db.execute(
            "select text, prompt_tokens, completion_tokens from responses where key = ?", (key,)
        ).fetchone()
        return CachedResponse(*row) if row else None

    def put(self, key: str, model: str, kind: str, response: CachedResponse) -> None:
        """Keep an answer (the first one wins when two processes race)."""
        with self._db:
            self._db.execute(
                "insert or ignore into responses values (?, ?, ?, ?, ?, ?)",
                (key, model, kind, response.text, response.prompt_tokens, response.completion_tokens),
            )

    def __len__(self) -> int:
        return self._db.execute("select count(*) from responses").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()
