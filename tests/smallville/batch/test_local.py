"""The tiny 2 x 2 grid in local worker processes: cell folders, the table, the summary, the plots."""

import json

import pandas as pd
import pytest

from smallville.batch import Budget, CellHooks, NoDisplay, cell_row, run_batch, run_cell, write_batch_report
from smallville.runs.store import RunStore

from .conftest import comparable, tiny_cells

pytestmark = pytest.mark.slow


def test_every_cell_is_an_ordinary_finished_run_folder(local_batch):
    batch, outcomes = local_batch
    assert sorted(outcome.status for outcome in outcomes) == ["done"] * 4
    for spec in tiny_cells():
        folder = batch / "cells" / spec.cell_id
        store = RunStore.open(folder)
        config = store.config()
        assert config["rng"] == spec.seed and config["scenario_name"] == "the_ville_n3"
        assert config["end"] == "2023-02-13T02:00:00"
        assert store.has_checkpoint()
        assert json.loads((folder / "checkpoint" / "state.json").read_text())["now"] == "2023-02-13T02:00:00"
        record = json.loads((folder / "cell.json").read_text())
        assert record["status"] == "done" and record["sessions"] == 1 and record["condition"] == spec.condition


def test_the_table_has_a_row_per_cell_with_parameters_measures_and_costs(local_table):
    table = local_table
    assert len(table) == 4
    assert list(table["condition"]) == ["full", "full", "no_reflection_planning", "no_reflection_planning"]
    assert list(table["seed"]) == [0, 1, 0, 1]
    assert list(table["param_planning"]) == [True, True, False, False]
    for column in ("density_start", "density_end", "aware_party_start", "aware_party_end", "aware_candidacy_end",
                   "attendance", "calls", "tokens", "cost", "fallbacks", "wall_seconds"):  # fmt: skip
        assert table[column].notna().all(), column
    assert (table["time_end"] == "2023-02-13T02:00:00").all()
    # The ablated cells plan nothing, so they make fewer calls than the full ones.
    full, ablated = table[table["condition"] == "full"], table[table["condition"] != "full"]
    assert ablated["calls"].max() < full["calls"].min()


def test_the_report_writes_table_summary_and_plots(local_batch, local_table):
    batch, _ = local_batch
    written = {path.name for path in write_batch_report(batch)}
    assert {"results.csv", "results.parquet", "summary.csv", "summary.md", "density.png", "aware_party.png"} <= written
    assert comparable(pd.read_parquet(batch / "results.parquet")).equals(comparable(local_table))
    summary = pd.read_csv(batch / "summary.csv")
    assert list(summary["condition"]) == ["full", "no_reflection_planning"]
    assert list(summary["cells"]) == [2, 2]
    calls = local_table.groupby("condition", sort=False)["calls"].mean().to_list()
    assert summary["calls_mean"].to_list() == calls
    assert (summary["calls_ci_low"] <= summary["calls_mean"]).all()
    assert (summary["calls_mean"] <= summary["calls_ci_high"]).all()
    markdown = (batch / "summary.md").read_text()
    assert "| calls |" in markdown and "full (n=2)" in markdown and "![density](report/density.png)" in markdown


def test_the_same_cells_run_one_by_one_give_the_same_rows(local_table, tmp_path):
    rows = []
    for spec in tiny_cells():
        outcome = run_cell(spec, tmp_path, CellHooks())
        assert outcome.status == "done"
        rows.append(cell_row(tmp_path / "cells" / spec.cell_id))
    from smallville.batch.results import _with_defaults

    alone = _with_defaults(pd.DataFrame(rows))
    pd.testing.assert_frame_equal(comparable(alone), comparable(local_table))


def test_running_the_batch_again_repeats_nothing(local_batch):
    batch, _ = local_batch

    class Refuse:
        slots = 1

        def submit(self, spec, limits):
            raise AssertionError(f"{spec.cell_id} was run again")

        def close(self):
            pass

    outcomes = run_batch(batch, tiny_cells(), Refuse(), Budget(), NoDisplay())
    assert [outcome.status for outcome in outcomes] == ["skipped"] * 4
