"""Run folders for the tests: a small offline run, and what the tests read back (the event log and the final
checkpoint, without wall-clock figures)."""

import csv
import io
import json
import sqlite3
from pathlib import Path

from smallville.cli import main
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import checkpoint_calls

# The flags of a small offline town: three agents, hashing embeddings.
FAST = ["--scenario", "the_ville_n3", "--embedder", "hashing"]


def simulated(out: Path, *flags: str) -> Path:
    """A run folder `run.py simulate` wrote into `out` with `flags` (FAST's, or others), which must succeed."""
    assert main(["simulate", *flags, "--out", str(out)]) == 0
    return out


def simulate_three(out: Path, until: str) -> Path:
    """A run folder of the 3-agent town, offline with hashing embeddings, simulated to `until` (ISO time)."""
    argv = ["simulate", "--scenario", "the_ville_n3", "--until", until, "--embedder", "hashing"]
    assert main([*argv, "--out", str(out)]) == 0
    return out


def events(folder: Path) -> list[tuple]:
    """The stored event log: (time, agent, kind, text), oldest first."""
    with sqlite3.connect(folder / "events.sqlite") as db:
        return db.execute("select time, agent, kind, text from events order by id").fetchall()


def metrics(folder: Path) -> tuple[str, str]:
    """The model and agent metrics CSVs, as text."""
    return (folder / "metrics" / "model.csv").read_text(), (folder / "metrics" / "agents.csv").read_text()


def metric_rows(folder: Path) -> tuple[int, int]:
    """The data rows of the model and agent metrics CSVs, read with the csv module (a field may hold a newline)."""
    return tuple(len(list(csv.reader(io.StringIO(text)))) - 1 for text in metrics(folder))


def final_state(folder: Path) -> dict:
    """The last checkpoint with the model calls it covers, without what differs between two runs: the call latencies,
    the id its answer journal is kept under (a new one at each checkpoint), the run's id, and the digest of the
    calls and the checksum, which cover them."""
    state = json.loads((folder / "checkpoint" / "state.json").read_text())
    for key in ("journal", "run_id", "checksum"):
        state.pop(key, None)
    state.get("digests", {}).pop("calls", None)
    state["covered_calls"] = checkpoint_calls(RunFolder(folder), state)
    for record in state["covered_calls"]:
        record.pop("latency_s")
    return state
