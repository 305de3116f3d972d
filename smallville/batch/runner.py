"""The batch driver: plan the cells, skip the finished ones, start the rest as slots free up, keep the budget.

Cells are handed to an executor (local processes or Ray tasks) a slot at a time rather than all at once, so each
cell starts with what is left of the batch budget, and once the budget is spent no further cell starts and the
running ones checkpoint and stop. Re-running the same batch finds the same cells in BATCH/batch.json, skips the
finished ones and resumes the others from their last checkpoints.
"""

import json
import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from smallville.batch.cell import FINISHED, CellOutcome, cell_folder, read_cell
from smallville.batch.grid import Budget, CellSpec, GridError
from smallville.runs.diagnosis import explain

PLAN_FILE = "batch.json"


class Executor(Protocol):
    """Where cells run: `slots` at once."""

    slots: int

    def submit(self, spec: CellSpec, limits: dict) -> str:
        """Start a cell."""

    def poll(self, timeout: float) -> tuple[list[CellOutcome], list[dict]]:
        """Finished cells and progress messages."""

    def request_stop(self) -> None:
        """Ask running cells to stop cleanly."""

    def close(self) -> None:
        """Release the workers."""


class Display(Protocol):
    """What the driver tells the user (the CLI's rich display; nothing in tests)."""

    def begin(self, cells: list[CellSpec], finished: list[str]) -> None:
        """The batch starts: all its cells, and those already finished."""

    def started(self, spec: CellSpec) -> None:
        """A cell started."""

    def progress(self, message: dict) -> None:
        """A cell's progress message."""

    def finished(self, outcome: CellOutcome) -> None:
        """A cell ended (done, stopped or failed)."""


class NoDisplay:
    """A display that shows nothing."""

    def begin(self, cells, finished) -> None:  # noqa: D102
        pass

    def started(self, spec) -> None:  # noqa: D102
        pass

    def progress(self, message) -> None:  # noqa: D102
        pass

    def finished(self, outcome) -> None:  # noqa: D102
        pass


@dataclass
class BatchState:
    """The calls and dollars spent so far, by cell (from their ledgers, then from progress messages)."""

    calls: dict[str, int]
    cost: dict[str, float]

    def spent(self, budget: Budget) -> bool:
        """Whether the batch budget is spent."""
        calls, cost = sum(self.calls.values()), sum(self.cost.values())
        return (budget.calls is not None and calls >= budget.calls) or (budget.cost is not None and cost >= budget.cost)

    def limits(self, cell_id: str, budget: Budget) -> dict:
        """A starting cell's limits: its own spending so far plus what the batch has left."""
        limits = {}
        if budget.calls is not None:
            left = budget.calls - sum(self.calls.values())
            limits["max_calls"] = self.calls.get(cell_id, 0) + max(0, left)
        if budget.cost is not None:
            left = budget.cost - sum(self.cost.values())
            limits["max_cost"] = self.cost.get(cell_id, 0.0) + max(0.0, left)
        return limits


def prepare(batch: Path, cells: list[CellSpec], grid_data: dict) -> None:
    """Create the batch folder or check that it holds the same cells; write the plan.

    Raises:
        GridError: If the folder holds a cell of the same name with other parameters.
    """
    plan_path = batch / PLAN_FILE
    if plan_path.is_file():
        known = json.loads(plan_path.read_text()).get("cells", {})
        for spec in cells:
            if spec.cell_id in known and known[spec.cell_id]["fingerprint"] != spec.fingerprint():
                raise GridError(
                    f"{batch}: cell {spec.cell_id} was run with other parameters; give another --out for this grid"
                )
    else:
        known = {}
    for spec in cells:
        known[spec.cell_id] = {"fingerprint": spec.fingerprint(), "condition": spec.condition}
    plan = {"grid": grid_data, "cells": known}
    writing = batch
    try:
        batch.mkdir(parents=True, exist_ok=True)
        _check_names(batch, cells)
        writing = plan_path.with_suffix(".tmp")
        writing.write_text(json.dumps(plan, indent=2, default=str) + "\n")
        writing.replace(plan_path)
    except OSError as error:
        raise GridError(explain(writing, error, "cannot be written")) from error


def _check_names(batch: Path, cells: list[CellSpec]) -> None:
    """Every cell's folder name fits the file system (a long condition name made one that no disk takes).

    Raises:
        GridError: Naming the condition, the name's length and the limit.
    """
    limit = os.pathconf(batch, "PC_NAME_MAX")
    for spec in cells:
        length = len(os.fsencode(spec.cell_id))
        if length > limit:
            raise GridError(
                f"condition {spec.condition[:40]!r}...: its cells' folder name ({spec.cell_id[:40]}...) is {length} "
                f"bytes, more than a file name may have here ({limit}); give the condition a shorter name"
            )


def run_batch(
    batch: Path, cells: list[CellSpec], executor: Executor, budget: Budget, display: Display | None = None
) -> list[CellOutcome]:
    """Run every unfinished cell; returns this session's outcomes (finished cells are reported as skipped)."""
    display = display or NoDisplay()
    state = BatchState(calls={}, cost={})
    finished = []
    for spec in cells:
        totals = _ledger(cell_folder(batch, spec.cell_id))
        state.calls[spec.cell_id] = totals.get("calls", 0)
        state.cost[spec.cell_id] = totals.get("cost") or 0.0
        if read_cell(cell_folder(batch, spec.cell_id)).get("status") in FINISHED:
            finished.append(spec.cell_id)
    display.begin(cells, finished)
    outcomes = [CellOutcome(cell_id, "skipped", message="finished before") for cell_id in finished]
    waiting = deque(spec for spec in cells if spec.cell_id not in finished)
    running: dict[str, CellSpec] = {}
    stopping = False
    try:
        while running or (waiting and not stopping):
            while waiting and len(running) < executor.slots and not stopping:
                spec = waiting.popleft()
                executor.submit(spec, state.limits(spec.cell_id, budget))
                running[spec.cell_id] = spec
                display.started(spec)
            done, messages = executor.poll(0.5)
            for message in messages:
                state.calls[message["cell"]] = message["calls"]
                state.cost[message["cell"]] = message["cost"]
                display.progress(message)
            for outcome in done:
                running.pop(outcome.cell_id, None)
                state.calls[outcome.cell_id] = max(state.calls.get(outcome.cell_id, 0), outcome.calls)
                state.cost[outcome.cell_id] = max(state.cost.get(outcome.cell_id, 0.0), outcome.cost)
                outcomes.append(outcome)
                display.finished(outcome)
            if not stopping and state.spent(budget):
                stopping = True
                executor.request_stop()
    finally:
        executor.close()
    for spec in waiting:
        outcome = CellOutcome(spec.cell_id, "not started", message="the batch budget is spent")
        outcomes.append(outcome)
        display.finished(outcome)
    return outcomes


def _ledger(folder: Path) -> dict:
    path = folder / "ledger.json"
    return json.loads(path.read_text()).get("totals", {}) if path.is_file() else {}
