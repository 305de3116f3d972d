"""The summary by condition: the mean of each measure over its cells with a 95% bootstrap confidence interval.

The interval is scipy's BCa bootstrap of the mean over the cells (the seeds, and scenarios if several), seeded so
that a report is reproducible. With one cell, or cells that all agree, there is nothing to resample: the interval
collapses to the mean (one cell) or to the common value.
"""

import numpy as np

# The measures summarised, when the table has them (facts and evaluation conditions are matched by prefix).
FIXED_MEASURES = ("density_start", "density_end", "attendance", "calls", "tokens", "cost", "fallbacks", "wall_seconds")
MEASURE_PREFIXES = ("aware_", "interview_aware_", "mu_", "eval_")
CONFIDENCE = 0.95
RESAMPLES = 2000


def measure_columns(frame) -> list[str]:
    """The numeric columns to summarise, in a stable order."""
    columns = [name for name in FIXED_MEASURES if name in frame]
    for prefix in MEASURE_PREFIXES:
        columns += [name for name in frame.columns if name.startswith(prefix) and name not in columns]
    return [name for name in columns if np.issubdtype(frame[name].dtype, np.number)]


def mean_ci(values: np.ndarray, seed: int = 0) -> tuple[float, float, float]:
    """Mean and 95% bootstrap interval of the mean (NaN for no values)."""
    from scipy.stats import bootstrap  # noqa: PLC0415 - scipy loads only for a summary

    values = values[~np.isnan(values)]
    if len(values) == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if len(values) < 2 or np.all(values == values[0]):
        return mean, mean, mean
    result = bootstrap(
        (values,), np.mean, confidence_level=CONFIDENCE, n_resamples=RESAMPLES, rng=np.random.default_rng(seed)
    )
    low, high = result.confidence_interval
    if np.isnan(low) or np.isnan(high):  # BCa can fail on tiny, lumpy samples; fall back to percentiles
        result = bootstrap((values,), np.mean, confidence_level=CONFIDENCE, n_resamples=RESAMPLES,
                           method="percentile", rng=np.random.default_rng(seed))  # fmt: skip
        low, high = result.confidence_interval
    return mean, float(low), float(high)


def summarize(frame):
    """One row per condition (in the table's order): cells, then mean, ci_low and ci_high of every measure."""
    import pandas as pd  # noqa: PLC0415

    rows = []
    if frame.empty:
        return pd.DataFrame(rows)
    done = frame[frame["status"] == "done"] if "status" in frame else frame
    for condition in dict.fromkeys(frame["condition"]):
        cells = done[done["condition"] == condition]
        row = {"condition": condition, "cells": len(cells)}
        for column in measure_columns(frame):
            mean, low, high = mean_ci(cells[column].to_numpy(dtype=float))
            row[f"{column}_mean"], row[f"{column}_ci_low"], row[f"{column}_ci_high"] = mean, low, high
        rows.append(row)
    return pd.DataFrame(rows)
