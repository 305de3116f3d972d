"""A batch-wide budget stops the batch cleanly; a re-run with more budget finishes it."""

import json

import pytest

from smallville.batch import Budget, LocalExecutor, prepare, results_frame, run_batch

from .conftest import TINY_GRID, comparable, tiny_cells

pytestmark = pytest.mark.slow


def test_the_batch_stops_at_its_budget_and_resumes_with_more(tmp_path, local_table):
    batch = tmp_path / "batch"
    cells = tiny_cells()
    first_cell_calls = int(local_table["calls"].iloc[0])
    budget = Budget(calls=first_cell_calls + 5)
    prepare(batch, cells, TINY_GRID)
    outcomes = run_batch(batch, cells, LocalExecutor(batch, workers=1), budget)

    assert [outcome.status for outcome in outcomes] == ["done", "stopped", "not started", "not started"]
    spent = sum(json.loads(path.read_text())["totals"]["calls"] for path in (batch / "cells").glob("*/ledger.json"))
    assert budget.calls <= spent <= budget.calls + 3 * 6  # the step under way finishes: at most its own calls more

    outcomes = run_batch(batch, cells, LocalExecutor(batch, workers=1), Budget())
    assert [outcome.status for outcome in outcomes] == ["skipped", "done", "done", "done"]
    table = results_frame(batch)
    assert (table["time_end"] == "2023-02-13T02:00:00").all()
    # Every cell equals the unbudgeted batch's, the stopped one too: the budget stops a cell between two steps.
    assert comparable(table).equals(comparable(local_table))
