"""Statistics across seeds: each measure by condition with an interval, differences between conditions, seeds needed.

Each measure has a 95% interval: Student's t interval of the mean over the cells (the seeds, and scenarios if
several: a bootstrap over so few is too narrow); with one cell, or cells that all agree, it collapses to the mean.
A difference is each condition's against the first (the table's baseline): paired by seed when both conditions ran
the same seeds (the mean per-seed difference and the paired t-test), else the difference of the means and Welch's
t-test. The seeds needed for an interval of a given width come from the spread seen over the seeds run.
"""

import numpy as np
import pandas as pd

from smallville.evaluation.statistics import difference, seeds_needed, t_interval

# The measures summarised, when the table has them (facts and evaluation conditions are matched by prefix).
FIXED_MEASURES = ("density_start", "density_end", "attendance", "calls", "tokens", "cost", "fallbacks", "wall_seconds")
MEASURE_PREFIXES = ("aware_", "interview_aware_", "attendance_", "mu_", "eval_")
# The interval width the seeds needed are counted for: 10 percentage points of a share, 0.1 of a density, one
# TrueSkill point; other measures (calls, cost) are not sized.
WIDTHS = {"aware_": 0.1, "interview_aware_": 0.1, "eval_": 0.1, "density_": 0.1, "mu_": 1.0}
# Measures the run estimates per step from memory text and positions (cheap), as opposed to the paper's measures.
ESTIMATES = ("aware_", "density_", "attendance", "eval_estimate_", "eval_relationship_density_estimate")


def measure_columns(frame) -> list[str]:
    """The numeric columns to summarise, in a stable order."""
    columns = [name for name in FIXED_MEASURES if name in frame]
    for prefix in MEASURE_PREFIXES:
        columns += [name for name in frame.columns if name.startswith(prefix) and name not in columns]
    return [name for name in columns if np.issubdtype(frame[name].dtype, np.number)]


def is_estimate(column: str) -> bool:
    """Whether a column is a cheap per-step estimate rather than the paper's measure."""
    return column.startswith(ESTIMATES) and not column.startswith(("attendance_",))


def width_for(column: str) -> float | None:
    """The interval width a measure's seeds are counted for (None: not sized)."""
    if column == "eval_hallucinations":
        return None
    return next((width for prefix, width in WIDTHS.items() if column.startswith(prefix)), None)


def mean_ci(values: np.ndarray, seed: int = 0) -> tuple[float, float, float]:
    """Mean and 95% t interval of the mean (NaN for no values); `seed` is kept for callers, unused."""
    del seed
    return t_interval(np.asarray(values, dtype=float))


def _done(frame):
    return frame[frame["status"] == "done"] if "status" in frame else frame


def summarize(frame):
    """One row per condition (in the table's order): cells, then mean, ci_low, ci_high and seeds needed per measure."""
    rows = []
    if frame.empty:
        return pd.DataFrame(rows)
    done = _done(frame)
    for condition in dict.fromkeys(frame["condition"]):
        cells = done[done["condition"] == condition]
        row = {"condition": condition, "cells": len(cells)}
        for column in measure_columns(frame):
            values = cells[column].to_numpy(dtype=float)
            mean, low, high = mean_ci(values)
            row[f"{column}_mean"], row[f"{column}_ci_low"], row[f"{column}_ci_high"] = mean, low, high
            width = width_for(column)
            if width is not None:
                row[f"{column}_seeds_needed"] = seeds_needed(values, width)
        rows.append(row)
    return pd.DataFrame(rows)


def differences(frame):
    """Each condition against the first, per measure: the difference, its 95% interval, the test and its p."""
    rows = []
    if frame.empty or frame["condition"].nunique() < 2:
        return pd.DataFrame(rows)
    done = _done(frame)
    conditions = list(dict.fromkeys(frame["condition"]))
    base = done[done["condition"] == conditions[0]]
    for condition in conditions[1:]:
        other = done[done["condition"] == condition]
        paired = "seed" in frame and _same_seeds(base, other)
        for column in measure_columns(frame):
            first, second = _by_seed(base, column, paired), _by_seed(other, column, paired)
            if not len(first) or not len(second):
                continue
            found = difference(first, second, paired=paired)
            rows.append({"condition": condition, "baseline": conditions[0], "measure": column, "difference": found.mean,
                         "ci_low": found.low, "ci_high": found.high, "test": found.test, "p": found.p})  # fmt: skip
    return pd.DataFrame(rows)


def _same_seeds(first, second) -> bool:
    seeds_a, seeds_b = list(first["seed"]), list(second["seed"])
    return len(set(seeds_a)) == len(seeds_a) and sorted(seeds_a) == sorted(seeds_b)


def _by_seed(cells, column: str, paired: bool) -> np.ndarray:
    ordered = cells.sort_values("seed") if paired else cells
    values = ordered[column].to_numpy(dtype=float)
    return values if paired else values[~np.isnan(values)]
