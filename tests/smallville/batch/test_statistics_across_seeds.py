"""Statistics across seeds in a batch report: intervals, differences between conditions with a test, seeds needed."""

import json

import pandas as pd
import pytest
from scipy import stats

from smallville.batch.results import evaluation_columns
from smallville.batch.summary import differences, is_estimate, summarize

FRAME = pd.DataFrame({
    "condition": ["full"] * 4 + ["no_reflection"] * 4,
    "seed": [0, 1, 2, 3] * 2,
    "status": ["done"] * 8,
    "interview_aware_party": [0.40, 0.50, 0.30, 0.45, 0.30, 0.44, 0.20, 0.40],
    "aware_party_end": [0.76, 0.8, 0.72, 0.8, 0.76, 0.8, 0.72, 0.8],
})  # fmt: skip


def test_differences_are_paired_by_seed_with_an_interval_and_a_test():
    found = differences(FRAME).set_index("measure")
    row = found.loc["interview_aware_party"]
    assert row["condition"] == "no_reflection" and row["baseline"] == "full" and row["test"] == "paired t"
    assert row["difference"] == pytest.approx(-0.0775)  # -0.10, -0.06, -0.10, -0.05
    assert row["ci_low"] < row["difference"] < row["ci_high"] < 0
    expected = stats.ttest_rel([0.30, 0.44, 0.20, 0.40], [0.40, 0.50, 0.30, 0.45]).pvalue
    assert row["p"] == pytest.approx(expected)
    same = found.loc["aware_party_end"]
    assert same["difference"] == 0 and same["ci_low"] == same["ci_high"] == 0


def test_unpaired_seeds_fall_back_to_welch():
    other = FRAME.assign(seed=[0, 1, 2, 3, 4, 5, 6, 7])
    row = differences(other).set_index("measure").loc["interview_aware_party"]
    assert row["test"] == "Welch t"
    expected = stats.ttest_ind([0.30, 0.44, 0.20, 0.40], [0.40, 0.50, 0.30, 0.45], equal_var=False).pvalue
    assert row["p"] == pytest.approx(expected)


def test_the_summary_counts_the_seeds_a_width_needs_and_labels_estimates():
    summary = summarize(FRAME).set_index("condition")
    # full: s = 0.0854 over 4 seeds; a 0.1 wide t interval needs 14 (see test_ratings)
    assert summary.loc["full", "interview_aware_party_seeds_needed"] == 14
    assert is_estimate("aware_party_end") and is_estimate("eval_estimate_aware_party")
    assert not is_estimate("interview_aware_party") and not is_estimate("attendance_came")


def test_an_evaluations_measures_become_columns(tmp_path):
    measures = {"awareness": {"party": 0.5}, "awareness_estimate": {"party": 0.76}, "relationship_density": 0.2,
                "relationship_density_directed": 0.3, "relationship_density_estimate": 0.7, "hallucinations": 4,
                "hallucination_rate": 0.01, "attendance": {"invited": 3, "came": 2, "present": 11,
                "control_window": "February 13, 5:00 pm to 7:00 pm", "control_came": 0, "control_present": 6},
                "position_bias": {"rankings": 800, "kept_order": 0.35, "chance": 0.37}}  # fmt: skip
    (tmp_path / "measures.json").write_text(json.dumps(measures))
    row = evaluation_columns(tmp_path)
    assert row["interview_aware_party"] == 0.5 and row["eval_estimate_aware_party"] == 0.76
    assert row["eval_relationship_density"] == 0.2 and row["eval_relationship_density_directed"] == 0.3
    assert (row["attendance_came"], row["attendance_control_came"]) == (2, 0)
    assert "attendance_control_window" not in row  # text, not a figure
    assert row["eval_position_bias"] == 0.35
