"""Writing and reading a run folder: config, event log, memory store, metrics, graphs, ledger and checkpoints.

Everything is flushed at a checkpoint, in an order that makes a crash at any moment recoverable: the memory store,
event log and metrics are appended first, then `checkpoint/state.json` is replaced atomically (written to a
temporary file, then renamed) with the counts of what it covers. Resuming truncates whatever was appended after
the last complete checkpoint, so a killed run loses at most the work since that checkpoint.
"""

import csv
import json
import os
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import networkx as nx

from memory import MemoryStore, StoreError
from smallville.run_folder import RunFolder


class RunFolderError(ValueError):
    """A run folder that cannot be created or read; the message says which and why."""


def safe_config(config: dict) -> dict:
    """The configuration as written to disk: credentials in a URL are removed (keys are never in the config)."""
    cleaned = dict(config)
    if cleaned.get("api_base"):
        parts = urlsplit(cleaned["api_base"])
        if parts.username or parts.password:
            netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
            cleaned["api_base"] = urlunsplit(parts._replace(netloc=netloc))
    return cleaned


class RunStore:
    """One run folder, open for writing checkpoints or for reading back."""

    def __init__(self, folder: RunFolder):
        self.folder = folder
        self.memory = MemoryStore(folder.memory)
        self._events_flushed = 0
        self._model_rows_flushed = 0
        self._agent_rows_flushed = 0

    @classmethod
    def create(cls, root: Path, config: dict) -> "RunStore":
        """Make a new run folder and write its config.

        Raises:
            RunFolderError: If the folder exists already or cannot be written.
        """
        folder = RunFolder(root)
        if root.exists() and any(root.iterdir()):
            raise RunFolderError(f"{root}: already exists; give a new folder, or resume it with `run.py resume {root}`")
        try:
            root.mkdir(parents=True, exist_ok=True)
            folder.metrics.mkdir(exist_ok=True)
            folder.graphs.mkdir(exist_ok=True)
            folder.config.write_text(json.dumps(safe_config(config), indent=2, default=str) + "\n")
        except OSError as error:
            raise RunFolderError(f"{root}: cannot write the run folder ({error.strerror})") from error
        return cls(folder)

    @classmethod
    def open(cls, root: Path) -> "RunStore":
        """Open an existing run folder.

        Raises:
            RunFolderError: If it is not a run folder.
        """
        folder = RunFolder(root)
        if not folder.exists():
            raise RunFolderError(f"{root}: not a run folder (no config.json); give a folder `run.py simulate` wrote")
        return cls(folder)

    def config(self) -> dict:
        """The run's configuration."""
        return json.loads(self.folder.config.read_text())

    def has_checkpoint(self) -> bool:
        """Whether a complete checkpoint exists."""
        return (self.folder.checkpoint / "state.json").is_file()

    # --- writing ------------------------------------------------------------------------------------------------

    def checkpoint(self, model) -> None:
        """Flush everything since the last checkpoint, then replace the checkpoint atomically."""
        self._check_embedder(model)
        for agent in model.people:
            self.memory.save(agent.name, agent.memories.stream)
        events = self._flush_events(model)
        model_rows, agent_rows = self._flush_metrics(model)
        graph_file = self.folder.graphs / f"{model.now:%Y%m%dT%H%M%S}.graphml"
        nx.write_graphml(model.social.graph, graph_file)
        self.folder.ledger.write_text(json.dumps(_ledger_summary(model), indent=2) + "\n")
        state = {
            "now": model.now.isoformat(),
            "model": model.get_state(streams=False),
            "stream_lengths": {agent.name: len(agent.memories.stream) for agent in model.people},
            "events": events,
            "model_rows": model_rows,
            "agent_rows": agent_rows,
        }
        self.folder.checkpoint.mkdir(exist_ok=True)
        _write_atomically(self.folder.checkpoint / "state.json", json.dumps(state))

    def _flush_events(self, model) -> int:
        new = model.event_log[self._events_flushed :]
        with sqlite3.connect(self.folder.events) as db:
            db.execute(
                "create table if not exists events (id integer primary key, time text, agent text, kind text, "
                "text text, details text)"
            )
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
            total = db.execute("select count(*) from events").fetchone()[0]
        self._events_flushed = len(model.event_log)
        return total

    def _flush_metrics(self, model) -> tuple[int, int]:
        collector = model.datacollector
        model_frame = collector.get_model_vars_dataframe()
        model_rows = _append_rows(self.folder.model_metrics, model_frame.iloc[self._model_rows_flushed :], index=False)
        self._model_rows_flushed = len(model_frame)
        agent_frame = collector.get_agent_vars_dataframe().reset_index()
        agent_rows = _append_rows(self.folder.agent_metrics, agent_frame.iloc[self._agent_rows_flushed :], index=False)
        self._agent_rows_flushed = len(agent_frame)
        return model_rows, agent_rows

    # --- reading ------------------------------------------------------------------------------------------------

    def restore(self, model) -> None:
        """Bring a freshly built model (same config) to the last checkpoint; drop anything written after it.

        Raises:
            RunFolderError: If the run has no checkpoint yet.
        """
        path = self.folder.checkpoint / "state.json"
        if not path.is_file():
            raise RunFolderError(f"{self.folder.root}: no checkpoint yet; the run stopped before its first one")
        state = json.loads(path.read_text())
        self._check_embedder(model)
        streams = {name: self.memory.load(name, length=length) for name, length in state["stream_lengths"].items()}
        model.set_state(state["model"], streams=streams)
        self._truncate(state)
        model.event_log.clear()
        self._events_flushed = 0
        self._model_rows_flushed = len(model.datacollector.get_model_vars_dataframe())
        self._agent_rows_flushed = len(model.datacollector.get_agent_vars_dataframe())

    def _truncate(self, state: dict) -> None:
        if self.folder.events.is_file():
            with sqlite3.connect(self.folder.events) as db:
                db.execute("delete from events where id > ?", (state["events"],))
        _keep_rows(self.folder.model_metrics, state["model_rows"])
        _keep_rows(self.folder.agent_metrics, state["agent_rows"])
        self.memory.truncate({name: length for name, length in state["stream_lengths"].items()})

    def _check_embedder(self, model) -> None:
        try:
            self.memory.check(model.embedder_name, model.people[0].memories.embedder.dim)
        except StoreError as error:
            raise RunFolderError(str(error)) from error

    def close(self) -> None:
        """Close the memory store."""
        self.memory.close()


def _ledger_summary(model) -> dict:
    ledger = model.gateway.ledger
    as_dict = lambda totals: totals.__dict__.copy()  # noqa: E731 - Totals is a plain dataclass
    return {
        "model": model.gateway.config.model,
        "totals": as_dict(ledger.totals()),
        "by_kind": {kind: as_dict(totals) for kind, totals in ledger.by_kind().items()},
        "by_agent": {agent: as_dict(totals) for agent, totals in ledger.by_agent().items()},
    }


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _append_rows(path: Path, frame, *, index: bool) -> int:
    """Append a frame's rows to a CSV (header on creation); returns the CSV's data row count."""
    frame.to_csv(path, mode="a", header=not path.is_file() or path.stat().st_size == 0, index=index)
    with path.open(newline="") as handle:
        return max(0, sum(1 for _ in csv.reader(handle)) - 1)


def _keep_rows(path: Path, rows: int) -> None:
    """Cut a CSV back to its header and first `rows` data rows."""
    if not path.is_file():
        return
    with path.open(newline="") as handle:
        kept = list(csv.reader(handle))[: rows + 1]
    with path.open("w", newline="") as handle:
        csv.writer(handle).writerows(kept)
