"""Ratings equal openskill's own computation; the statistics on examples worked by hand."""

import math

import pytest
from openskill.models import ThurstoneMostellerFull
from scipy import stats

from smallville.evaluation import dunn, holm, kruskal_wallis, rate

RANKINGS = [["full", "none", "half"], ["full", "half", "none"], ["half", "full", "none"]]


def test_ratings_equal_the_library_applied_by_hand():
    model = ThurstoneMostellerFull(mu=25.0, sigma=25 / 3, tau=0.0)
    ratings = {name: model.rating() for name in ("full", "half", "none")}
    for ranking in RANKINGS:
        updated = model.rate([[ratings[name]] for name in ranking], ranks=[1, 2, 3])
        ratings.update({name: team[0] for name, team in zip(ranking, updated, strict=True)})
    ours = rate(["full", "half", "none"], RANKINGS)
    assert [(r.condition, r.mu, r.sigma) for r in ours] == [
        (name, ratings[name].mu, ratings[name].sigma) for name in ("full", "half", "none")
    ]
    assert ours[0].mu > ours[2].mu  # full beat none in every ranking


def test_ratings_start_at_the_papers_defaults():
    (only,) = rate(["full"], [])
    assert (only.mu, only.sigma) == (25.0, pytest.approx(25 / 3))


def test_holm_multiplies_by_the_remaining_count_and_stays_monotone():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_kruskal_wallis_matches_scipy_and_is_nan_without_variation():
    ranks = {"a": [1, 1, 2, 1], "b": [2, 3, 3, 2], "c": [3, 2, 1, 3]}
    h, p = kruskal_wallis(ranks)
    expected = stats.kruskal(*ranks.values())
    assert (h, p) == pytest.approx((expected.statistic, expected.pvalue))
    assert all(math.isnan(value) for value in kruskal_wallis({"a": [1, 1], "b": [1, 1]}))


def test_dunn_without_ties_matches_the_textbook_formula():
    # Joint ranks 1..6: a holds 1, 2, 3 and b holds 4, 5, 6 -> mean ranks 2 and 5, N = 6, no ties.
    (comparison,) = dunn({"a": [0.1, 0.2, 0.3], "b": [0.4, 0.5, 0.6]})
    z = (2 - 5) / math.sqrt(6 * 7 / 12 * (1 / 3 + 1 / 3))
    assert comparison.z == pytest.approx(z)
    assert comparison.p == pytest.approx(2 * stats.norm.sf(abs(z)))
    assert comparison.p_holm == pytest.approx(comparison.p)
