"""Writing and reading a run folder: config, event log, memory store, metrics, graphs, ledger and checkpoints.

Everything is flushed at a checkpoint, in an order that makes a crash at any moment recoverable: the memory store,
event log, model calls and metrics are appended first, then `checkpoint/state.json` is replaced atomically (written to a
temporary file, then renamed, the one before kept as `previous.json`) with the counts of what it covers. Resuming
truncates whatever was appended after the checkpoint it continues from, so a killed run loses at most the work since
that checkpoint (two intervals if the newest checkpoint is damaged). A writer holds the folder's lock (run_lock);
readers open it without the lock and see the checkpoint's snapshot, never a half-written step.
"""

import csv
import json
import os
import shutil
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

import networkx as nx
import pandas as pd

from agents.language import AnswerJournal, without_credentials
from memory import MemoryStore, StoreError
from smallville.runs.diagnosis import diagnose, explain
from smallville.runs.folder import CALL_COLUMNS, RunFolder, has_table
from smallville.runs.identity import extend_digests, new_run_id, stamp, state_checksum
from smallville.runs.integrity import (
    EVENTS_SCHEMA_VERSION,
    RunFolderError,
    Snapshot,
    check_databases,
    checkpoint_calls,
    hand_edits,
    read_config,
    read_snapshot,
    unfinished_fork,
)
from smallville.runs.lock import LOCK_NAME, RunFolderLocked, RunLock

__all__ = ["RunFolderError", "RunStore", "safe_config"]


def safe_config(config: dict) -> dict:
    """The configuration as written to disk: credentials in a URL are removed (keys are never in the config)."""
    cleaned = dict(config)
    if cleaned.get("api_base"):
        cleaned["api_base"] = without_credentials(cleaned["api_base"])
    return cleaned


class RunStore:
    """One run folder, open for writing checkpoints (holding its lock) or for reading its last checkpoint back.

    Attributes:
        folder: The folder's paths.
        snapshot: The checkpoint the run continues from or is read at (None before the first one).
    """

    def __init__(self, folder: RunFolder, lock: RunLock | None = None, snapshot: Snapshot | None = None):
        self.folder = folder
        self.lock = lock
        self.snapshot = snapshot
        self.notes: list[str] = []  # run terms edited by hand, named when the folder is opened (run_check.hand_edits)
        # True while a fork is being made: its checkpoints are marked unfinished until the one holding its change.
        self.fork_pending = False
        self._stamped = False  # the databases carry the run's id (stamped at this store's first checkpoint)
        try:
            self.memory = MemoryStore(folder.memory)
        except StoreError as error:
            self._release()
            raise RunFolderError(_diagnosed(folder.memory, error, folder.root)) from error
        # The answers since the last checkpoint (a writer's only: a reader never writes into the folder).
        self.journal: AnswerJournal | None = None
        if lock is not None:
            try:
                self.journal = AnswerJournal(folder.answers)
            except sqlite3.Error as error:
                self.close()
                raise RunFolderError(explain(folder.answers, error, "cannot be opened", folder.root)) from error
        self._events_flushed = 0
        self._calls_flushed = 0
        self._model_rows_flushed = 0
        self._agent_rows_flushed = 0
        # Data rows of each metrics CSV, counted on the first append and then kept: counting by reading the file at
        # every checkpoint made checkpoints slower as the run grew (a day's agent metrics are 36,000 rows).
        self._csv_rows: dict[Path, int] = {}

    @classmethod
    def create(cls, root: Path, config: dict) -> "RunStore":
        """Make a new run folder, lock it and write its config.

        Raises:
            RunFolderError: If the folder exists already, another process writes to it, or it cannot be written.
        """
        folder = RunFolder(Path(root))
        lock = _lock(folder.root)
        try:
            if folder.exists():
                raise RunFolderError(
                    f"{root}: already exists and holds a run; continue it with `run.py resume {root}`, "
                    "or give another --out"
                )
            leftovers = {
                LOCK_NAME,
                folder.config.name + ".tmp",
                folder.config_written.name,
                folder.config_written.name + ".tmp",
            }  # a create killed before its config was in place
            if any(path.name not in leftovers for path in folder.root.iterdir()):
                raise RunFolderError(f"{root}: already exists and is not a run folder; give another --out")
            _write_config(folder, safe_config({**config, "run_id": new_run_id()}))
            folder.metrics.mkdir(exist_ok=True)  # (a resume of a run killed before these makes them again)
            folder.graphs.mkdir(exist_ok=True)
        except OSError as error:
            lock.release()
            raise RunFolderError(explain(folder.root, error, "cannot write the run folder")) from error
        except RunFolderError:
            lock.release()
            raise
        return cls(folder, lock)

    @classmethod
    def open(cls, root: Path, *, write: bool = False, full_check: bool | None = None) -> "RunStore":
        """Open an existing run folder, every file checked; `write` takes its lock for the store's life.

        `full_check` (default: when writing) recomputes the digests of what the checkpoint covers
        (integrity.read_snapshot): a run that goes on must not carry damage on; one only read is checked cheaply.

        Raises:
            RunFolderError: If it is not a run folder, a file is damaged, or (to write) another process writes to it.
        """
        folder = RunFolder(Path(root))
        config = read_config(folder)
        notes = hand_edits(folder, config)
        lock = _lock(folder.root) if write else None
        try:
            check_databases(folder)
            snapshot = read_snapshot(folder, full=write if full_check is None else full_check)
            if snapshot is None and "forked_from" in config:  # killed before its first checkpoint: not a new run
                raise RunFolderError(unfinished_fork(folder))
        except RunFolderError:
            if lock:
                lock.release()
            raise
        store = cls(folder, lock, snapshot)
        store.notes = notes
        if notes and lock is not None:  # the writer takes the edited terms on: named once, not at every open
            _write_atomically(folder.config_written, folder.config.read_text(encoding="utf-8"))
        return store

    def config(self) -> dict:
        """The run's configuration (checked when the store was opened)."""
        return read_config(self.folder)

    def update_config(self, changes: dict) -> None:
        """Replace some of config.json's values (a resumed run's new end or budget), atomically.

        Raises:
            RunFolderError: If the file cannot be written; the old one stays intact.
        """
        try:
            _write_config(self.folder, safe_config({**self.config(), **changes}))
        except OSError as error:
            raise RunFolderError(explain(self.folder.config, error, "cannot be written", self.folder.root)) from error
        read_config(self.folder)  # what the next command will read

    def has_checkpoint(self) -> bool:
        """Whether a usable checkpoint exists."""
        return self.snapshot is not None

    def start_over(self) -> None:
        """Delete what a run killed before its first checkpoint wrote (all but the config), to run it from the start."""
        self.memory.close()
        for path in (self.folder.events, self.folder.memory, self.folder.ledger):
            for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
                part.unlink(missing_ok=True)
        for directory in (self.folder.metrics, self.folder.graphs, self.folder.checkpoint):
            shutil.rmtree(directory, ignore_errors=True)
        self.folder.metrics.mkdir()
        self.folder.graphs.mkdir()
        self.memory = MemoryStore(self.folder.memory)

    # --- writing ------------------------------------------------------------------------------------------------

    def checkpoint(self, model) -> None:
        """Flush everything since the last checkpoint, then replace the checkpoint atomically.

        Raises:
            RunFolderError: If a file cannot be written (a full disk): naming it; the last checkpoint stays intact.
        """
        if model.torn:
            raise RuntimeError("a town torn mid-step cannot be checkpointed: resume from its last checkpoint")
        model.finish_thoughts()  # the thinking agents' streams and records then hold what their thoughts did
        self._check_embedder(model)
        writing = self.folder.memory
        try:
            self.memory.save_all({agent.name: agent.memories.stream for agent in model.people})
            writing = self.folder.events
            events, calls = self._flush_log(model)
            writing = self.folder.metrics
            model_rows, agent_rows = self._flush_metrics(model)
            writing = self.folder.graphs / f"{model.now:%Y%m%dT%H%M%S}.graphml"
            nx.write_graphml(model.social.graph, writing)
            writing = self.folder.ledger
            _write_atomically(writing, json.dumps(_ledger_summary(model), indent=2) + "\n")
            generation = uuid.uuid4().hex  # the answers received after this checkpoint are kept under it
            state = {
                "now": model.now.isoformat(),
                "journal": generation,
                "model": model.get_state(streams=False, ledger=False),
                "stream_lengths": {agent.name: len(agent.memories.stream) for agent in model.people},
                "events": events,
                "calls": calls,
                "model_rows": model_rows,
                "agent_rows": agent_rows,
            }
            if self.fork_pending:
                state["fork_pending"] = True
            run_id = self.config().get("run_id")
            if run_id is not None:
                writing = self.folder.events
                if not self._stamped:
                    stamp(self.folder, run_id)
                    self._stamped = True
                state["run_id"] = run_id
            state["digests"] = extend_digests(self.folder, state, self.snapshot.state if self.snapshot else None)
            state["checksum"] = state_checksum(state)
            writing = self.folder.checkpoint_state
            self.folder.checkpoint.mkdir(exist_ok=True)
            _write_atomically(writing, json.dumps(state), keep=self.folder.checkpoint_previous)
        except (OSError, sqlite3.Error, StoreError) as error:
            if self.snapshot:
                kept = f"the last good checkpoint ({self.snapshot.now:%Y-%m-%d %H:%M}) is intact"
            else:
                kept = "no checkpoint was written yet (resume starts the run again)"
            found = diagnose(writing, error, self.folder.root)
            cause, fix = found or (_reason(error), "free some disk space")
            raise RunFolderError(
                f"{writing}: cannot be written ({cause}); {kept}: {fix}, then `run.py resume {self.folder.root}`"
            ) from error
        self._begin_journal(model, generation, self.snapshot.state.get("journal") if self.snapshot else None)
        self.snapshot = Snapshot(self.folder.checkpoint_state, state, model.now)

    def _begin_journal(self, model, generation: str | None, previous: str | None = None, *, resume: bool = False):
        """Keep the model's answers from now on under the checkpoint `generation` (a writer's store only).

        With `resume`, the answers kept after that checkpoint are replayed first.
        """
        if self.journal is None:
            return
        model.gateway.journal = self.journal
        if resume:
            self.journal.resume(generation)
        else:
            self.journal.begin(generation, keep=previous)

    def _flush_log(self, model) -> tuple[int, int]:
        """Append the events and the model calls since the last checkpoint; returns the rows of each table.

        The calls go here rather than into state.json, which each checkpoint rewrites whole: kept there, a day's
        1,412 records made up half of its 837 KB, and the file grew with the run.
        """
        new = model.event_log[self._events_flushed :]
        records = model.gateway.ledger.records[self._calls_flushed :]
        with closing(sqlite3.connect(self.folder.events, timeout=30)) as db, db:
            if db.execute("pragma user_version").fetchone()[0] == 0:
                db.execute("pragma journal_mode=wal")
            db.execute(f"pragma user_version = {EVENTS_SCHEMA_VERSION}")
            db.execute(
                "create table if not exists events (id integer primary key, time text, agent text, kind text, "
                "text text, details text)"
            )
            db.execute(f"create table if not exists calls (id integer primary key, {', '.join(CALL_COLUMNS)})")
            db.executemany(
                "insert into events (time, agent, kind, text, details) values (?, ?, ?, ?, ?)",
                [
                    (
                        entry["time"],
                        entry["agent"],
                        entry["kind"],
                        entry["text"],
                        json.dumps({k: v for k, v in entry.items() if k not in {"time", "agent", "kind", "text"}}),
                    )
                    for entry in new
                ],
            )
            db.executemany(
                f"insert into calls ({', '.join(CALL_COLUMNS)}) values ({', '.join('?' * len(CALL_COLUMNS))})",
                [tuple(getattr(record, name) for name in CALL_COLUMNS) for record in records],
            )
            events = db.execute("select count(*) from events").fetchone()[0]
            calls = db.execute("select count(*) from calls").fetchone()[0]
        self._events_flushed = len(model.event_log)
        self._calls_flushed += len(records)
        return events, calls

    def _flush_metrics(self, model) -> tuple[int, int]:
        collector = model.datacollector
        model_frame = collector.get_model_vars_dataframe()
        model_rows = self._append_rows(self.folder.model_metrics, model_frame.iloc[self._model_rows_flushed :])
        self._model_rows_flushed = len(model_frame)
        new_agent_rows = _agent_rows_since(collector, self._agent_rows_flushed)
        agent_rows = self._append_rows(self.folder.agent_metrics, new_agent_rows)
        self._agent_rows_flushed += len(new_agent_rows)
        return model_rows, agent_rows

    def _append_rows(self, path: Path, frame) -> int:
        """Append a frame's rows to a metrics CSV (header on creation); returns the CSV's data row count."""
        if path not in self._csv_rows:
            self._csv_rows[path] = _count_rows(path)
        frame.to_csv(path, mode="a", header=not path.is_file() or path.stat().st_size == 0, index=False)
        self._csv_rows[path] += len(frame)
        return self._csv_rows[path]

    # --- reading ------------------------------------------------------------------------------------------------

    def restore(self, model, *, truncate: bool = True) -> None:
        """Bring a freshly built model (same config) to the checkpoint; a writer also drops anything written after.

        Args:
            model: A SmallvilleModel built from the run's config.
            truncate: Cut the data files back to the checkpoint (writers only: a reader must not touch them).

        Raises:
            RunFolderError: If the run has no checkpoint yet, or its memories do not fit the model.
        """
        if self.snapshot is None:
            raise RunFolderError(
                f"{self.folder.root}: no checkpoint yet (the run stopped while loading); "
                f"`run.py resume {self.folder.root}` starts it again from the beginning"
            )
        state = self.snapshot.state
        held, built = set(state["model"]["agents"]), {agent.name for agent in model.people}
        if held != built:  # config.json no longer describes the run (a scenario or agents edited in by hand)
            missing = sorted(held - built) or sorted(built - held)
            raise RunFolderError(
                f"{self.folder.config}: names a town ({model.setting.name}, {len(built)} agents) that is not the "
                f"checkpoint's ({len(held)} agents; {missing[0]} is in one only); put back the scenario and agents "
                "the run was made with"
            )
        self._check_embedder(model)
        try:
            streams = {name: self.memory.load(name, length=length) for name, length in state["stream_lengths"].items()}
        except StoreError as error:
            raise RunFolderError(_diagnosed(self.folder.memory, error, self.folder.root)) from error
        ledger = {"records": checkpoint_calls(self.folder, state)}
        model.set_state({**state["model"], "ledger": ledger}, streams=streams)
        if truncate:
            self._truncate(state)
            self._begin_journal(model, self.snapshot.state.get("journal"), resume=True)
        model.event_log.clear()
        self._events_flushed = 0
        # A checkpoint from before the calls table kept them in state.json: the next one writes them all to the table.
        self._calls_flushed = state.get("calls") or 0
        self._model_rows_flushed = len(model.datacollector.get_model_vars_dataframe())
        self._agent_rows_flushed = len(model.datacollector.get_agent_vars_dataframe())

    def _truncate(self, state: dict) -> None:
        """Cut every data file back to the checkpoint; a file that cannot be written is one line with its cause."""
        writing = self.folder.events
        try:
            self._cut_back(state)
        except (OSError, sqlite3.Error, StoreError) as error:
            writing = self.folder.memory if isinstance(error, StoreError) else writing
            raise RunFolderError(explain(writing, error, "cannot be written", self.folder.root)) from error

    def _cut_back(self, state: dict) -> None:
        if self.folder.events.is_file():
            with closing(sqlite3.connect(self.folder.events, timeout=30)) as db, db:
                db.execute("delete from events where id > ?", (state["events"],))
                if has_table(db, "calls"):
                    db.execute("delete from calls where id > ?", (state.get("calls") or 0,))
        _keep_rows(self.folder.model_metrics, state["model_rows"])
        _keep_rows(self.folder.agent_metrics, state["agent_rows"])
        self._csv_rows.clear()
        self.memory.truncate({name: length for name, length in state["stream_lengths"].items()})

    def _check_embedder(self, model) -> None:
        try:
            self.memory.check(model.embedder_name, model.people[0].memories.embedder.dim)
        except StoreError as error:
            raise RunFolderError(str(error)) from error

    def close(self) -> None:
        """Close the memory store and the journal, and release the lock."""
        self.memory.close()
        if self.journal is not None:
            self.journal.close()
        self._release()

    def _release(self) -> None:
        if self.lock is not None:
            self.lock.release()


def _lock(root: Path) -> RunLock:
    if root.exists() and not root.is_dir():
        raise RunFolderError(f"{root}: is a file, not a run folder; give a folder")
    try:
        return RunLock(root)
    except RunFolderLocked as error:
        raise RunFolderError(str(error)) from error
    except OSError as error:
        raise RunFolderError(explain(root, error, "cannot be locked for writing", root)) from error


def _reason(error: BaseException) -> str:
    cause = error.__cause__ if isinstance(error, StoreError) and error.__cause__ else error
    return getattr(cause, "strerror", None) or str(cause)


def _diagnosed(path: Path, error: StoreError, root: Path) -> str:
    """A memory store's error, its cause named if it is permission, a full disk, a lock or damage."""
    return explain(path, error, "cannot be used", root) if diagnose(path, error, root) else str(error)


def _write_config(folder: RunFolder, config: dict) -> None:
    """Write config.json, and the copy a hand edit is told from (run_check.hand_edits), each atomically."""
    text = json.dumps(config, indent=2, default=str) + "\n"
    _write_atomically(folder.config_written, text)
    _write_atomically(folder.config, text)


def _ledger_summary(model) -> dict:
    ledger = model.gateway.ledger
    as_dict = lambda totals: totals.__dict__.copy()  # noqa: E731 - Totals is a plain dataclass
    return {
        "model": model.gateway.config.model,
        "totals": as_dict(ledger.totals()),
        "by_kind": {kind: as_dict(totals) for kind, totals in ledger.by_kind().items()},
        "by_agent": {agent: as_dict(totals) for agent, totals in ledger.by_agent().items()},
    }


def _write_atomically(path: Path, text: str, keep: Path | None = None) -> None:
    """Write a temporary file, flush it to disk, then rename it over `path` (after moving the old one to `keep`)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    try:
        with temporary.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    if keep is not None and path.is_file():
        os.replace(path, keep)
    os.replace(temporary, path)


def _agent_rows_since(collector, flushed: int):
    """The agent rows collected after the first `flushed`, as `get_agent_vars_dataframe().reset_index()` has them.

    Built from the collector's records (Mesa 3.5 keeps them per step in `_agent_records`): the public frame holds every
    row of the run, and rebuilding it at each checkpoint cost a day 1.9 s, growing with the square of the run's length.
    The steps already flushed are skipped whole, so a checkpoint reads one count per step before them, not every row.
    """
    rows, seen = [], 0
    for records in collector._agent_records.values():
        if seen + len(records) > flushed:
            rows.extend(records[max(0, flushed - seen) :])
        seen += len(records)
    return pd.DataFrame.from_records(rows, columns=["Step", "AgentID", *collector.agent_reporters])


def _count_rows(path: Path) -> int:
    """A CSV's data rows (records after the header; 0 if there is no file)."""
    if not path.is_file():
        return 0
    with path.open(newline="") as handle:
        return max(0, sum(1 for _ in csv.reader(handle)) - 1)


def _keep_rows(path: Path, rows: int) -> None:
    """Cut a CSV back to its header and first `rows` data rows."""
    if not path.is_file():
        return
    with path.open(newline="") as handle:
        kept = list(csv.reader(handle))[: rows + 1]
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(kept)
    os.replace(temporary, path)
