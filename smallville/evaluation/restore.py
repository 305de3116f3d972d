"""A run's town at its last checkpoint, rebuilt for an evaluation, and the run's event log.

The pattern of `run.py interview`: the run's configuration builds a fresh model, the store restores it. The
evaluation's calls go through that model's gateway (cache, routes, budget) on a fresh ledger, so what the
evaluation costs is counted apart from the run.
"""

import json
import sqlite3
from pathlib import Path

from agents.language.accounting import Ledger
from smallville.run_store import RunStore

# The request kinds a --judge model answers: rankings and fact checks (the old pairwise judge too).
JUDGE_KINDS = ("rank", "fact_check", "judge")


def load_model(run: Path, *, llm: str | None = None, judge: str | None = None):
    """The run's model at its last checkpoint, answering with `llm` (None: the run's) and judging with `judge`.

    Raises:
        RunFolderError: If the folder is not a run or has no checkpoint.
    """
    from smallville.model import SmallvilleModel  # noqa: PLC0415 - heavy

    store = RunStore.open(run)
    try:
        config = store.config()
        config.pop("end", None)
        config.pop("checkpoint_minutes", None)
        if llm:
            config["llm"] = llm
        if judge:
            config["routes"] = {**(config.get("routes") or {}), **dict.fromkeys(JUDGE_KINDS, judge)}
        model = SmallvilleModel(**config)
        try:
            store.restore(model)
        except BaseException:
            model.close()
            raise
    finally:
        store.close()
    model.gateway.ledger = Ledger()
    return model


def read_event_log(run: Path) -> list[dict]:
    """The run's event log (actions, talk lines, talks, plans) as dicts, oldest first."""
    path = run / "events.sqlite"
    if not path.is_file():
        return []
    with sqlite3.connect(path) as db:
        rows = db.execute("select time, agent, kind, text, details from events order by id").fetchall()
    return [
        {"time": time, "agent": agent, "kind": kind, "text": text, **json.loads(details or "{}")}
        for time, agent, kind, text, details in rows
    ]
