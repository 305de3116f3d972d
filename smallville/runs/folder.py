"""The layout of a run folder: everything a report, an interview, a resume or the browser replay needs.

<run>/
  config.json          the model's keyword arguments, resolved (never an API key), and the run's id (`run_id`), also
                       stamped into both databases: a file copied in from another run is named (runs/identity.py)
  events.sqlite        the event log: actions, talks and their lines, plans, reflections (table `events`), and
                       every answered model request: agent, kind, model, tokens, latency, cost (table `calls`)
  memory.sqlite        every agent's memory stream (memory.MemoryStore)
  metrics/model.csv    the DataCollector's model frame (time, density, awareness, calls, ...)
  metrics/agents.csv   the DataCollector's agent frame (position, action, knowledge per agent)
  graphs/<time>.graphml  the relationship graph at each checkpoint
  checkpoint/          the latest checkpoint (state.json), replaced atomically, and the one before (previous.json);
                       each holds digests of the events, calls and memories it covers, and its own checksum
  answers.sqlite       the model's answers since the last checkpoint, replayed when a stopped run resumes
  .config.written.json config.json as this program last wrote it: a hand edit is found and named on open
  .lock                the writer's lock (smallville.runs.lock): one writer per folder, its pid inside
  ledger.json          model calls, tokens and cost by agent and request kind
  report/              written by `run.py report`
"""

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass, fields
from pathlib import Path

from agents.language import CallRecord
from smallville.runs.diagnosis import read_only_uri

# The `calls` table's columns after its id: a CallRecord's fields, in order (SQLite keeps the booleans as 0 and 1).
CALL_COLUMNS = tuple(field.name for field in fields(CallRecord))
_FLAGS = {field.name for field in fields(CallRecord) if field.type is bool}


@dataclass(frozen=True)
class RunFolder:
    """Paths inside one run folder."""

    root: Path

    @property
    def config(self) -> Path:
        """The resolved configuration."""
        return self.root / "config.json"

    @property
    def events(self) -> Path:
        """The event log database."""
        return self.root / "events.sqlite"

    @property
    def memory(self) -> Path:
        """The memory streams database."""
        return self.root / "memory.sqlite"

    @property
    def config_written(self) -> Path:
        """config.json as the program last wrote it (see run_check.hand_edits)."""
        return self.root / ".config.written.json"

    @property
    def answers(self) -> Path:
        """The answers since the last checkpoint (agents/language/journal.py)."""
        return self.root / "answers.sqlite"

    @property
    def metrics(self) -> Path:
        """The metrics frames folder."""
        return self.root / "metrics"

    @property
    def model_metrics(self) -> Path:
        """The model frame."""
        return self.metrics / "model.csv"

    @property
    def agent_metrics(self) -> Path:
        """The agent frame."""
        return self.metrics / "agents.csv"

    @property
    def graphs(self) -> Path:
        """Relationship graph snapshots."""
        return self.root / "graphs"

    @property
    def checkpoint(self) -> Path:
        """The latest checkpoint folder."""
        return self.root / "checkpoint"

    @property
    def checkpoint_state(self) -> Path:
        """The newest checkpoint."""
        return self.checkpoint / "state.json"

    @property
    def checkpoint_previous(self) -> Path:
        """The checkpoint before the newest, used when the newest is damaged."""
        return self.checkpoint / "previous.json"

    @property
    def ledger(self) -> Path:
        """Calls, tokens and cost."""
        return self.root / "ledger.json"

    @property
    def report(self) -> Path:
        """Where `report` writes its plots and summary."""
        return self.root / "report"

    def exists(self) -> bool:
        """Whether this is a run folder (it has a config)."""
        return self.config.is_file()


def read_events(path: Path) -> list[dict]:
    """An event log (events.sqlite), oldest first, each entry's details merged in; [] when there is none yet."""
    if not path.is_file():
        return []
    with closing(sqlite3.connect(read_only_uri(path), uri=True, timeout=30)) as db:
        rows = db.execute("select time, agent, kind, text, details from events order by id").fetchall()
    return [
        {"time": time, "agent": agent, "kind": kind, "text": text, **json.loads(details or "{}")}
        for time, agent, kind, text, details in rows
    ]


def has_table(db: sqlite3.Connection, name: str) -> bool:
    """Whether a SQLite database holds a table of that name (a run's files gain theirs at its first checkpoint)."""
    return db.execute("select 1 from sqlite_master where name = ?", (name,)).fetchone() is not None


def read_calls(path: Path, up_to: int | None = None) -> list[dict]:
    """The answered model requests in an events.sqlite (the first `up_to` of them), oldest first; [] if none yet."""
    if not path.is_file():
        return []
    with closing(sqlite3.connect(read_only_uri(path), uri=True, timeout=30)) as db:
        if not has_table(db, "calls"):
            return []
        query = f"select {', '.join(CALL_COLUMNS)} from calls"
        if up_to is None:
            rows = db.execute(query + " order by id").fetchall()
        else:
            rows = db.execute(query + " where id <= ? order by id", (up_to,)).fetchall()
    return [
        {name: bool(value) if name in _FLAGS else value for name, value in zip(CALL_COLUMNS, row, strict=True)}
        for row in rows
    ]
