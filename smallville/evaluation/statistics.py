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
    """Dunn's test of two conditions: z, the raw p-value and Holm's adjusted one."""

    first: str
    second: str
    z: float
    p: float
    p_holm: float


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
    """Dunn's test for every pair of conditions, with Holm's correction across the pairs."""
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
    return [Comparison(a, b, z, p, q) for (a, b, z, p), q in zip(raw, adjusted, strict=True)]
