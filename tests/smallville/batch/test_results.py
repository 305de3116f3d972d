"""The table, the summary and the plots from hand-made cell folders (evaluated and not), without simulating."""

import json

import numpy as np
import pandas as pd
import pytest

from smallville.batch import cell_row, mean_ci, summarize, write_batch_report
from smallville.batch.cell import write_cell

METRICS = """time,awake,talking,model_calls,tokens,cost,density,attendees,aware_party,aware_candidacy
2023-02-13T00:00:00,3,0,3,100,0.0,0.2,0,0.25,0.0
2023-02-13T01:00:00,3,2,{calls},900,0.0,{density},{attendees},{party},0.5
"""


def make_cell(batch, cell_id, condition, seed, *, density, party, calls=10, attendees=1, evaluation=None):
    folder = batch / "cells" / cell_id
    (folder / "metrics").mkdir(parents=True)
    (folder / "metrics" / "model.csv").write_text(
        METRICS.format(calls=calls, density=density, attendees=attendees, party=party)
    )
    (folder / "config.json").write_text("{}")
    ledger = {"totals": {"calls": calls, "cache_hits": 1, "prompt_tokens": 700, "completion_tokens": 200,
                         "cost": 0.5, "fallbacks": 2}}  # fmt: skip
    (folder / "ledger.json").write_text(json.dumps(ledger))
    write_cell(folder, {"condition": condition, "scenario": "s", "seed": seed, "status": "done",
                        "parameters": {"reflection": condition == "full"}, "wall_seconds": 3.0})  # fmt: skip
    if evaluation:
        ratings, measures = evaluation
        (folder / "evaluation").mkdir()
        lines = ["condition,mu,sigma", *(f"{name},{mu},{sigma}" for name, (mu, sigma) in ratings.items())]
        (folder / "evaluation" / "ratings.csv").write_text("\n".join(lines) + "\n")
        (folder / "evaluation" / "measures.json").write_text(json.dumps(measures))
    return folder


MEASURES = {
    "awareness": {"party": 0.5, "candidacy": 0.25},
    "awareness_keyword": {"party": 0.75, "candidacy": 0.5},
    "relationship_density": 0.4,
    "hallucinations": 3,
    "hallucination_rate": 0.1,
    "attendance": {"invited": 4, "came": 2, "present": 3},
}


def test_a_row_reads_metrics_ledger_and_the_evaluation(tmp_path):
    ratings = {"full": (28.5, 1.2), "no_reflection": (24.0, 1.5)}
    folder = make_cell(tmp_path, "c", "full", 0, density=0.5, party=0.75, evaluation=(ratings, MEASURES))
    row = cell_row(folder)
    assert row["cell"] == "c" and row["condition"] == "full" and row["seed"] == 0 and row["status"] == "done"
    assert row["param_reflection"] is True
    assert (row["density_start"], row["density_end"]) == (0.2, 0.5)
    assert (row["aware_party_start"], row["aware_party_end"], row["aware_candidacy_end"]) == (0.25, 0.75, 0.5)
    assert row["attendance"] == 1
    assert (row["calls"], row["tokens"], row["cost"], row["fallbacks"]) == (10, 900, 0.5, 2)
    assert (row["mu_full"], row["sigma_full"], row["mu_no_reflection"]) == (28.5, 1.2, 24.0)
    assert row["interview_aware_party"] == 0.5 and row["interview_aware_candidacy"] == 0.25
    assert row["eval_hallucinations"] == 3
    assert (row["attendance_invited"], row["attendance_came"]) == (4, 2)
    assert row["wall_seconds"] == 3.0


def test_a_row_without_evaluation_has_no_rating_columns(tmp_path):
    row = cell_row(make_cell(tmp_path, "c", "full", 0, density=0.5, party=0.5))
    assert not any(name.startswith(("mu_", "interview_")) for name in row)


def test_mean_ci_brackets_the_mean_and_collapses_when_nothing_varies():
    mean, low, high = mean_ci(np.array([1.0, 2.0, 3.0, 4.0, 10.0]))
    assert mean == 4.0 and low < mean < high
    assert mean_ci(np.array([2.0, 2.0, 2.0])) == (2.0, 2.0, 2.0)
    assert mean_ci(np.array([5.0])) == (5.0, 5.0, 5.0)
    assert all(np.isnan(mean_ci(np.array([np.nan]))))


def test_the_summary_is_by_condition_over_finished_cells_only():
    frame = pd.DataFrame({
        "condition": ["a", "a", "a", "b", "b"],
        "status": ["done", "done", "failed", "done", "done"],
        "density_end": [0.2, 0.4, 0.9, 0.5, 0.5],
        "calls": [10, 20, 1000, 5, 7],
    })  # fmt: skip
    summary = summarize(frame).set_index("condition")
    assert summary.loc["a", "cells"] == 2
    assert summary.loc["a", "density_end_mean"] == pytest.approx(0.3)
    assert summary.loc["a", "calls_mean"] == 15
    assert summary.loc["b", "density_end_ci_low"] == summary.loc["b", "density_end_ci_high"] == 0.5


@pytest.mark.slow  # draws the ladder with matplotlib
def test_the_batch_report_of_evaluated_cells_draws_the_trueskill_ladder(tmp_path):
    batch = tmp_path / "batch"
    cells = {}
    for seed in range(3):
        for condition, mu in (("full", 28.0), ("no_reflection", 24.0)):
            ratings = {"full": (mu + seed, 1.0), "no_memory": (mu - 5 + seed, 1.0)}
            cell_id = f"{condition}--s--seed{seed}"
            make_cell(batch, cell_id, condition, seed, density=0.3 + 0.1 * seed, party=0.5,
                      evaluation=(ratings, MEASURES))  # fmt: skip
            cells[cell_id] = {"fingerprint": cell_id, "condition": condition}
    (batch / "batch.json").write_text(json.dumps({"grid": {}, "cells": cells}))
    written = {path.name for path in write_batch_report(batch)}
    assert {"trueskill_ladder.png", "density.png", "aware_party.png", "aware_candidacy.png"} <= written
    summary = pd.read_csv(batch / "summary.csv").set_index("condition")
    assert summary.loc["full", "mu_full_mean"] == 29.0
    assert summary.loc["full", "mu_full_ci_low"] < 29.0 < summary.loc["full", "mu_full_ci_high"]
    assert summary.loc["no_reflection", "interview_aware_party_mean"] == 0.5
    assert "trueskill_ladder.png" in (batch / "summary.md").read_text()
    table = pd.read_parquet(batch / "results.parquet")
    assert len(table) == 6 and table["mu_no_memory"].notna().all()
