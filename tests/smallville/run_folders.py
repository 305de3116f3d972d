"""What the run-folder tests read back: the event log and the final checkpoint, without wall-clock figures."""

import json
import sqlite3
from pathlib import Path


def events(folder: Path) -> list[tuple]:
    """The stored event log: (time, agent, kind, text), oldest first."""
    with sqlite3.connect(folder / "events.sqlite") as db:
        return db.execute("select time, agent, kind, text from events order by id").fetchall()


def final_state(folder: Path) -> dict:
    """The last checkpoint, without the call latencies that differ between two runs."""
    state = json.loads((folder / "checkpoint" / "state.json").read_text())
    for record in state["model"]["ledger"]["records"]:
        record.pop("latency_s")
    return state
