"""Run one cell: an ordinary run folder under BATCH/cells/<cell_id>, created, or resumed from its last checkpoint.

The folder is what `run.py simulate` writes (its config has the same `end` and `checkpoint_minutes`), so every other
command (report, resume, interview, evaluate, serve) reads it. Beside the run's own files, `cell.json` records the
cell's place in the grid and its status: running, simulated, done, stopped (budget) or failed.

A lock file held while the cell runs keeps two processes off one folder: a worker orphaned by a killed driver
notices within a few steps and leaves, and a new driver's worker waits for it before resuming.
"""

import fcntl
import json
import logging
import shutil
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from agents import BudgetExceeded, ModelUnavailable
from smallville.batch.grid import CellSpec
from smallville.evaluation import evaluate_run
from smallville.heap import settled_heap
from smallville.model import SmallvilleModel
from smallville.runs.diagnosis import explain
from smallville.runs.integrity import model_settings
from smallville.runs.store import RunStore
from smallville.settings.parameters import resolve

logger = logging.getLogger(__name__)

CELL_FILE = "cell.json"
# Steps between two progress reports (and checks of the stop flag and of the driver).
REPORT_EVERY = 30
FINISHED = ("done",)


class DriverGone(RuntimeError):
    """The batch driver died; the cell leaves its folder at the last checkpoint for the next driver to resume."""


@dataclass
class CellHooks:
    """How a cell talks to its driver; the defaults run it alone.

    Attributes:
        report: Receives progress messages: {"cell", "kind", "now", "fraction", "calls", "cost"}.
        should_stop: True once the batch budget is spent: the cell checkpoints and stops cleanly.
        alive: False once the driver is gone: the cell leaves without writing anything more.
        on_checkpoint: Called with the cell folder after each checkpoint (Ray ships it back to the driver).
        max_calls, max_cost: This cell's share of the batch budget, as totals of its own ledger.
    """

    report: Callable[[dict], None] = lambda message: None
    should_stop: Callable[[], bool] = lambda: False
    alive: Callable[[], bool] = lambda: True
    on_checkpoint: Callable[[Path], None] = lambda folder: None
    max_calls: int | None = None
    max_cost: float | None = None


@dataclass
class CellOutcome:
    """What became of a cell in this session."""

    cell_id: str
    status: str
    wall_seconds: float = 0.0
    calls: int = 0
    cost: float = 0.0
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def cell_folder(batch: Path, cell_id: str) -> Path:
    """Where a cell's run folder lives."""
    return batch / "cells" / cell_id


def read_cell(folder: Path) -> dict:
    """A cell's record (empty if the cell never started)."""
    path = folder / CELL_FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def write_cell(folder: Path, record: dict) -> None:
    """Replace a cell's record atomically."""
    temporary = folder / (CELL_FILE + ".tmp")
    temporary.write_text(json.dumps(record, indent=2, default=str) + "\n")
    temporary.replace(folder / CELL_FILE)


def run_cell(spec: CellSpec, batch: Path, hooks: CellHooks | None = None) -> CellOutcome:
    """Bring a cell to its end (and evaluate it if asked), resuming whatever a previous session left."""
    hooks = hooks or CellHooks()
    folder = cell_folder(batch, spec.cell_id)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with _locked(folder.parent / f".{spec.cell_id}.lock"):
        record = read_cell(folder)
        if record.get("status") in FINISHED:
            return CellOutcome(spec.cell_id, "done", record.get("wall_seconds", 0.0), message="already finished")
        started = time.perf_counter()
        try:
            status, message = _simulate_and_evaluate(spec, folder, hooks)
        except DriverGone:
            return CellOutcome(spec.cell_id, "interrupted", message="the driver is gone")
        except Exception as error:
            logger.exception("cell %s failed", spec.cell_id)
            status, message = "failed", f"{type(error).__name__}: {error}"
        record = read_cell(folder) if folder.is_dir() else {}
        wall = record.get("wall_seconds", 0.0) + time.perf_counter() - started
        totals = _ledger_totals(folder)
        if folder.is_dir():
            try:
                write_cell(folder, {**_record(spec), **record, "status": status, "message": message,
                                    "wall_seconds": wall})  # fmt: skip
            except OSError as error:  # a full disk: the cell failed, and says why, even if its record cannot
                status, message = "failed", explain(folder / CELL_FILE, error, "cannot be written", folder)
        return CellOutcome(spec.cell_id, status, wall, totals.get("calls", 0), totals.get("cost") or 0.0, message)


def _simulate_and_evaluate(spec: CellSpec, folder: Path, hooks: CellHooks) -> tuple[str, str]:

    record = read_cell(folder)
    if record.get("status") != "simulated":
        try:
            status, message = _simulate(spec, folder, hooks)
        except BudgetExceeded as error:  # spent while building the town (its seeded memories' importance calls)
            return "stopped", str(error)
        if status != "simulated":
            return status, message
        write_cell(folder, {**read_cell(folder), "status": "simulated"})  # a killed evaluation resumes, not the run
    if not spec.evaluate:
        return "done", ""

    evaluate_run(folder)
    return "done", "evaluated"


def _simulate(spec: CellSpec, folder: Path, hooks: CellHooks) -> tuple[str, str]:

    limits = {"max_calls": hooks.max_calls, "max_cost": hooks.max_cost}
    if (folder / "checkpoint" / "state.json").is_file():
        store = RunStore.open(folder, full_check=True)  # a killed cell resumes: damage must not be carried on
        config = store.config()
        end = datetime.fromisoformat(config["end"])
        minutes = config["checkpoint_minutes"]
        model = SmallvilleModel(**{**model_settings(config), **limits}, seed_memories=False)
        store.restore(model)
        record = read_cell(folder)
    else:
        if folder.exists():  # started but killed before its first checkpoint: start again
            shutil.rmtree(folder)
        kwargs = spec.model_kwargs()
        model = SmallvilleModel(**{**kwargs, **limits})
        end = datetime.fromisoformat(spec.until) if spec.until else model.now + timedelta(days=spec.days)
        minutes = spec.checkpoint_minutes
        # Every parameter, defaults included, as `run.py simulate` writes it: the folder is an ordinary run folder.
        settings = resolve(kwargs)
        store = RunStore.create(folder, {**settings, "end": end.isoformat(), "checkpoint_minutes": minutes})
        record = _record(spec)
    write_cell(folder, {**record, "status": "running", "sessions": record.get("sessions", 0) + 1})
    every = max(1, int(minutes * 60 // model.seconds_per_step))
    status, message = "simulated", ""
    try:
        with settled_heap():
            if _step_to(end, model, store, every, spec, folder, hooks):
                status, message = "stopped", "the batch budget is spent"
    except (BudgetExceeded, ModelUnavailable) as error:
        status, message = "stopped", str(error)
    except DriverGone:
        store.close()
        model.close()
        raise
    if not model.torn:  # stopped mid-step, it resumes from its last checkpoint and the answers since
        store.checkpoint(model)
    store.close()
    model.close()
    return status, message


def _step_to(end: datetime, model, store, every: int, spec: CellSpec, folder: Path, hooks: CellHooks) -> bool:
    """Step to `end`, checkpointing every `every` steps and reporting; whether the batch's budget stopped it first.

    Raises:
        DriverGone: If the batch driver is gone (this cell's results would reach no one).
    """
    total = max(1.0, (end - model.start).total_seconds())
    while model.now < end:
        model.step()
        if model.step_count % every == 0:
            store.checkpoint(model)
            hooks.on_checkpoint(folder)
        if model.step_count % REPORT_EVERY == 0 or model.now >= end:
            if not hooks.alive():
                raise DriverGone(spec.cell_id)
            hooks.report(_progress(spec, model, total, "progress"))
            if hooks.should_stop():
                return True
    return False


def _progress(spec: CellSpec, model, total: float, kind: str) -> dict:
    totals = model.gateway.ledger.totals()
    return {
        "cell": spec.cell_id,
        "kind": kind,
        "now": model.now.isoformat(),
        "fraction": min(1.0, (model.now - model.start).total_seconds() / total),
        "calls": totals.calls,
        "cost": totals.cost or 0.0,
    }


def _record(spec: CellSpec) -> dict:
    return {**asdict(spec), "fingerprint": spec.fingerprint()}


def _ledger_totals(folder: Path) -> dict:
    path = folder / "ledger.json"
    return json.loads(path.read_text()).get("totals", {}) if path.is_file() else {}


@contextmanager
def _locked(path: Path):
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
