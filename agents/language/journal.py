"""The answers a run received since its last checkpoint, kept on disk as they arrive, replayed when it resumes.

A run that stops mid-step (the model's server died, the process was killed) cannot be checkpointed where it stopped:
its thoughts in flight are half done. It resumes from its last checkpoint instead, and the steps since are simulated
again. Without this journal their model calls would be made again: paid twice, and a model that answers differently
the second time would make the resumed run depart from the one that never stopped. With it, every answer received
since the checkpoint is given again as it was first given (text, tokens, cost, retries), so the resumed run makes the
same decisions, keeps the same accounts, and asks the model again only from the call that failed.

Answers are kept by the call's key (model, messages, parameters: `cache_key`) in arrival order, under the id of the
checkpoint they follow (a `generation`), so an answer given after another checkpoint, or before a whisper rewrote the
checkpoint, is never replayed. SQLite in WAL mode, one commit per answer: an answer is kept once it has arrived, even
if the process is killed the next moment. It stores answers and token counts, never a key or a header.
"""

import logging
import sqlite3
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path

from agents.language.backends.base import Completion

logger = logging.getLogger(__name__)

SCHEMA = """
create table if not exists answers (
    id integer primary key, generation text not null, key text not null, text text not null,
    prompt_tokens integer not null, completion_tokens integer not null, cost real, cached_tokens integer not null,
    answer_format text not null, retries integer not null
)
"""


@dataclass(frozen=True)
class KeptAnswer:
    """An answer as it was first given, and the retries it took."""

    completion: Completion
    retries: int


class AnswerJournal:
    """The answers since the last checkpoint, in one SQLite file of the run folder (its writer's alone).

    Args:
        path: The journal's file (created if missing).
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("pragma synchronous=normal")  # durable against a killed process; one fsync per checkpoint
        self._db.execute(SCHEMA)
        self._db.commit()
        self.generation: str | None = None
        self._replay: dict[str, deque[tuple[int, KeptAnswer]]] = {}
        self.replayed = 0

    def begin(self, generation: str, keep: str | None = None) -> None:
        """Answers from now on follow the checkpoint `generation`; all but its answers and `keep`'s are dropped.

        `keep` is the checkpoint before (a run whose newest checkpoint is damaged resumes from that one).
        """
        self.generation = generation
        self._replay = {}
        with self._db:
            self._db.execute("delete from answers where generation not in (?, ?)", (generation, keep or generation))

    def resume(self, generation: str | None) -> int:
        """Go on after the checkpoint `generation`: its answers are replayed, in order, to the calls that ask again.

        Returns:
            How many answers are waiting to be replayed.
        """
        self.generation = generation
        self._replay = defaultdict(deque)
        rows = self._db.execute(
            "select id, key, text, prompt_tokens, completion_tokens, cost, cached_tokens, answer_format, retries "
            "from answers where generation = ? order by id",
            (generation,),
        ).fetchall()
        for row_id, key, text, prompt, completion, cost, cached, answer_format, retries in rows:
            answer = KeptAnswer(Completion(text, prompt, completion, cost, cached, answer_format), retries)
            self._replay[key].append((row_id, answer))
        return len(rows)

    @property
    def waiting(self) -> int:
        """Answers kept for calls not asked again yet."""
        return sum(len(queue) for queue in self._replay.values())

    def take(self, key: str) -> KeptAnswer | None:
        """The next kept answer to this call, if the run received one before it stopped."""
        queue = self._replay.get(key)
        if not queue:
            return None
        _, answer = queue.popleft()
        self.replayed += 1
        return answer

    def keep(self, key: str, completion: Completion, retries: int) -> None:
        """Keep an answer just received (nothing is kept before the first `begin` or `resume`)."""
        if self.generation is None:
            return
        with self._db:
            self._db.execute(
                "insert into answers (generation, key, text, prompt_tokens, completion_tokens, cost, cached_tokens, "
                "answer_format, retries) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.generation, key, completion.text, completion.prompt_tokens, completion.completion_tokens,
                 completion.cost, completion.cached_tokens, completion.answer_format, retries),
            )  # fmt: skip

    def __len__(self) -> int:
        """The answers kept since the current checkpoint."""
        query = "select count(*) from answers where generation = ?"
        return self._db.execute(query, (self.generation,)).fetchone()[0]

    def close(self) -> None:
        """Close the file."""
        self._db.close()
