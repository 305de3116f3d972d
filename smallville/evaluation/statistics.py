"""The paper's statistics over ranks: Kruskal-Wallis across conditions, then Dunn's pairwise test, Holm-corrected.

Dunn's test and Holm's step-down are a few lines over scipy.stats (no extra dependency): z from the difference
of the groups' mean joint ranks with the tie correction, two-sided normal p-values.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class Comparison:
    """Dunn's test of two conditions: z, the raw p-value and Holm's adjusted one.

    With the rankings paired (every ranking ranks both), also the mean difference of their places (second minus
    first: positive when the first ranks better) and its 95% bootstrap interval.
    """

    first: str
    second: str
    z: float
    p: float
    p_holm: float
    difference: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")


def kruskal_wallis(ranks: Mapping[str, Sequence[float]]) -> tuple[float, float]:
    """H and its p-value over the conditions' rank samples (nan, nan when it cannot be computed)."""
    samples = [list(values) for values in ranks.values() if len(values)]
    if len(samples) < 2 or len({value for sample in samples for value in sample}) < 2:
        return float("nan"), float("nan")
    result = stats.kruskal(*samples)
    return float(result.statistic), float(result.pvalue)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input's order (monotone, capped at 1)."""
    count = len(p_values)
    order = sorted(range(count), key=lambda index: p_values[index])
    adjusted, running = [0.0] * count, 0.0
    for step, index in enumerate(order):
        running = max(running, min(1.0, (count - step) * p_values[index]))
        adjusted[index] = running
    return adjusted


def dunn(ranks: Mapping[str, Sequence[float]]) -> list[Comparison]:
    """Dunn's test for every pair of conditions, with Holm's correction across the pairs.

    When every condition has a place in each ranking (equal lengths), the pairs' mean differences of place come
    with their bootstrap intervals.
    """
    names = [name for name, values in ranks.items() if len(values)]
    values = np.concatenate([np.asarray(ranks[name], dtype=float) for name in names]) if names else np.array([])
    total = len(values)
    if len(names) < 2:
        return []
    joint = stats.rankdata(values)
    _, ties = np.unique(values, return_counts=True)
    tie_term = float(np.sum(ties**3 - ties)) / (12 * (total - 1))
    variance = total * (total + 1) / 12 - tie_term
    mean_rank, start = {}, 0
    for name in names:
        size = len(ranks[name])
        mean_rank[name] = (float(joint[start : start + size].mean()), size)
        start += size
    raw = []
    for first, second in combinations(names, 2):
        (mean_a, n_a), (mean_b, n_b) = mean_rank[first], mean_rank[second]
        spread = np.sqrt(variance * (1 / n_a + 1 / n_b)) if variance > 0 else 0.0
        z = (mean_a - mean_b) / spread if spread else 0.0
        raw.append((first, second, float(z), float(2 * stats.norm.sf(abs(z)))))
    adjusted = holm([p for *_, p in raw])
    paired = len({len(ranks[name]) for name in names}) == 1
    found = []
    for (a, b, z, p), q in zip(raw, adjusted, strict=True):
        if paired:
            places = np.asarray(ranks[b], dtype=float) - np.asarray(ranks[a], dtype=float)
            found.append(Comparison(a, b, z, p, q, *mean_interval(places)))
        else:
            found.append(Comparison(a, b, z, p, q))
    return found


# Intervals: 95%, from 2,000 bootstrap resamples (scipy's BCa, percentile when BCa cannot be computed).
CONFIDENCE = 0.95
RESAMPLES = 2000


def _settled(values: Sequence[float]) -> tuple[np.ndarray, tuple[float, float, float] | None]:
    """The values without NaN, and the interval already decided: NaN for none, the mean itself for one or equal."""
    data = np.asarray([value for value in values if not np.isnan(value)], dtype=float)
    if len(data) == 0:
        return data, (float("nan"),) * 3
    if len(data) < 2 or np.all(data == data[0]):
        mean = float(data.mean())
        return data, (mean, mean, mean)
    return data, None


def mean_interval(values: Sequence[float], seed: int = 0) -> tuple[float, float, float]:
    """Mean and 95% bootstrap interval of the mean (NaN for no values; the mean itself for one or equal values)."""
    data, settled = _settled(values)
    if settled is not None:
        return settled
    mean = float(data.mean())
    low, high = _bootstrap((data,), lambda sample, axis=-1: np.mean(sample, axis=axis), seed)
    return mean, low, high


def _bootstrap(samples: tuple, statistic, seed: int) -> tuple[float, float]:
    options = {"confidence_level": CONFIDENCE, "n_resamples": RESAMPLES}
    result = stats.bootstrap(samples, statistic, rng=np.random.default_rng(seed), **options)
    low, high = result.confidence_interval
    if np.isnan(low) or np.isnan(high):  # BCa fails on tiny, lumpy samples
        result = stats.bootstrap(samples, statistic, method="percentile", rng=np.random.default_rng(seed), **options)
        low, high = result.confidence_interval
    return float(low), float(high)


def t_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Mean and Student-t interval of the mean: the interval over a few seeds (3 to 10).

    A bootstrap over so few values is too narrow (over 4 seeds it covers the truth about 81% of the time, not 95%;
    benchmarks/bench_measures.py --parts coverage simulates it); t's is the width the sample can honestly claim.
    NaN for no values; the mean itself for one or equal values.
    """
    data, settled = _settled(values)
    if settled is not None:
        return settled
    mean = float(data.mean())
    half = float(stats.t.ppf((1 + confidence) / 2, len(data) - 1) * data.std(ddof=1) / np.sqrt(len(data)))
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Difference:
    """Second minus first: the mean difference, its 95% t interval, and a two-sided test.

    Paired (by seed, when both have the same seeds): the mean of the per-seed differences, its t interval and the
    paired t-test; else the difference of the means, Welch's interval and Welch's t-test (t, not a bootstrap: these
    are differences over a few seeds). p is NaN when the test cannot be computed (one value each,
    or no spread at all).
    """

    mean: float
    low: float
    high: float
    p: float
    test: str


def difference(first: Sequence[float], second: Sequence[float], *, paired: bool, seed: int = 0) -> Difference:
    """How a measure differs between two conditions across seeds."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if paired and len(a) == len(b):
        diffs = b - a
        mean, low, high = t_interval(diffs)
        p = float(stats.ttest_rel(b, a).pvalue) if len(diffs) > 1 and np.ptp(diffs) > 0 else float("nan")
        return Difference(mean, low, high, p, "paired t")
    mean = float(b.mean() - a.mean()) if len(a) and len(b) else float("nan")
    if len(a) < 2 or len(b) < 2 or (np.ptp(a) == 0 and np.ptp(b) == 0):
        return Difference(mean, mean, mean, float("nan"), "Welch t")
    welch = stats.ttest_ind(b, a, equal_var=False)
    low, high = welch.confidence_interval(CONFIDENCE)
    return Difference(mean, float(low), float(high), float(welch.pvalue), "Welch t")


def seeds_needed(values: Sequence[float], width: float, confidence: float = CONFIDENCE) -> int | None:
    """Seeds for a confidence interval of the mean no wider than `width`, from the spread seen in `values`.

    The t interval's width, 2 t(n-1) s / sqrt(n), with s the sample standard deviation; None without a spread to go
    on (fewer than two values), 2 when the values do not vary.
    """
    data = np.asarray([value for value in values if not np.isnan(value)], dtype=float)
    if len(data) < 2 or width <= 0:
        return None
    spread = float(data.std(ddof=1))
    if spread == 0:
        return 2
    for seeds in range(2, 100_000):
        if 2 * stats.t.ppf((1 + confidence) / 2, seeds - 1) * spread / np.sqrt(seeds) <= width:
            return seeds
    return None
