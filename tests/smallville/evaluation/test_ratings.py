"""Ratings equal openskill's own computation, ties are draws, position bias counted; statistics worked by hand."""

import asyncio
import math
from types import SimpleNamespace

import numpy as np
import pytest
from openskill.models import ThurstoneMostellerFull
from scipy import stats

from agents.language import offline_answer
from smallville.evaluation import dunn, holm, kruskal_wallis, rate
from smallville.evaluation.conditions import CONDITIONS, Condition
from smallville.evaluation.interviews import _ranks, shown_order
from smallville.evaluation.ratings import length_bias, position_bias, positions_of
from smallville.evaluation.results import condition_figures
from smallville.evaluation.statistics import difference, mean_interval, seeds_needed, t_interval

RANKINGS = [["full", "none", "half"], ["full", "half", "none"], ["half", "full", "none"]]
GROUPS = [[[name] for name in ranking] for ranking in RANKINGS]


def test_ratings_equal_the_library_applied_by_hand():
    model = ThurstoneMostellerFull(mu=25.0, sigma=25 / 3, tau=0.0)
    ratings = {name: model.rating() for name in ("full", "half", "none")}
    for ranking in RANKINGS:
        updated = model.rate([[ratings[name]] for name in ranking], ranks=[1, 2, 3])
        ratings.update({name: team[0] for name, team in zip(ranking, updated, strict=True)})
    ours = rate(["full", "half", "none"], GROUPS)
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


def test_tied_conditions_draw_and_identical_ones_keep_equal_ratings():
    rankings = [[["full", "copy"], ["none"]], [["none"], ["full", "copy"]], [["full", "copy"], ["none"]]]
    full, copy, none = rate(["full", "copy", "none"], rankings)
    assert abs(full.mu - copy.mu) < 1e-9 and full.sigma == copy.sigma
    assert full.mu > none.mu
    assert rate(["a", "b"], [[["a", "b"]]]) == rate(["a", "b"], [])  # all tied: no match at all
    assert positions_of([["a"], ["b", "c"], ["d"]]) == {"a": 1, "b": 2.5, "c": 2.5, "d": 4}


def test_position_bias_is_the_share_of_rankings_that_keep_the_shown_order_beside_a_blind_judge_with_its_ties():
    records = [
        {"distinct": 3, "positions": [[0], [1], [2]]},  # the shown order
        {"distinct": 3, "positions": [[2], [0], [1]]},
        {"distinct": 2, "positions": [[0, 1], [2]]},  # identical answers tied, in the shown order
        {"distinct": 1, "positions": [[0]]},  # identical answers: the judge was not asked
    ]
    bias = position_bias(records)
    assert bias.rankings == 3
    assert bias.kept_order == pytest.approx(2 / 3)
    assert bias.chance == pytest.approx((1 / 6 + 1 / 6 + 1 / 3) / 3)  # 3!/(2! 1!) = 3 orders with that tie
    assert bias.first_best == pytest.approx(2 / 3)
    assert bias.first_chance == pytest.approx((1 / 3 + 1 / 3 + 2 / 3) / 3)
    assert "66.7% of 3 rankings kept the shown order" in bias.text()


def test_length_bias_is_how_often_the_longest_answer_wins_beside_a_blind_judge_with_its_ties():
    longest_wins = [{"distinct": 3, "positions": [[2], [1], [0]], "lengths": [3, 10, 30]} for _ in range(4)]
    bias = length_bias(longest_wins)
    assert (bias.rankings, bias.longest_first, bias.correlation) == (4, 1.0, pytest.approx(1.0))
    assert bias.chance == pytest.approx(1 / 3)
    blind = [
        {"distinct": 2, "positions": [[0], [1]], "lengths": [5, 20]},
        {"distinct": 2, "positions": [[1], [0]], "lengths": [5, 20]},
        {"distinct": 2, "positions": [[0, 1], [2]], "lengths": [20, 20, 5]},  # two longest tied first: chance 1
        {"distinct": 1, "positions": [[0]], "lengths": [7]},  # not asked
    ]
    bias = length_bias(blind)
    assert bias.rankings == 3 and bias.longest_first == pytest.approx(2 / 3)
    assert bias.chance == pytest.approx((1 / 2 + 1 / 2 + 1) / 3)
    assert "came first in 66.7% of 3 rankings" in bias.text()


def test_intervals_differences_and_seeds_needed():
    mean, low, high = mean_interval([0.4, 0.5, 0.3, 0.45])
    assert mean == pytest.approx(0.4125) and low < mean < high
    assert mean_interval([0.2, 0.2]) == (0.2, 0.2, 0.2)
    assert all(math.isnan(value) for value in mean_interval([]))
    paired = difference([0.4, 0.5, 0.3, 0.45], [0.5, 0.6, 0.45, 0.5], paired=True)
    assert paired.mean == pytest.approx(0.1) and paired.low > 0 and paired.test == "paired t"
    assert paired.p == pytest.approx(stats.ttest_rel([0.5, 0.6, 0.45, 0.5], [0.4, 0.5, 0.3, 0.45]).pvalue)
    same = difference([0.4, 0.5], [0.4, 0.5], paired=True)
    assert same.mean == 0 and math.isnan(same.p)
    # s = 0.0854; 2 t(n-1) s / sqrt(n) <= 0.1 first holds at n = 14 (t = 2.160: 0.0986)
    assert seeds_needed([0.4, 0.5, 0.3, 0.45], 0.1) == 14
    assert seeds_needed([0.3], 0.1) is None and seeds_needed([0.3, 0.3], 0.1) == 2


def test_dunn_pairs_carry_the_mean_difference_of_places_when_paired():
    ranks = {"full": [1, 1, 2, 1], "none": [2, 2, 1, 2]}
    (comparison,) = dunn(ranks)
    assert comparison.difference == pytest.approx(0.5)  # none ranked half a place lower on average
    assert comparison.low <= 0.5 <= comparison.high
    (unpaired,) = dunn({"full": [1, 1], "none": [2, 2, 1]})
    assert math.isnan(unpaired.difference)


def test_every_condition_is_shown_under_its_own_label_each_first_as_often_as_the_others():
    """Identical answers are not merged before the judge (it must tie them itself), and the shuffle is of the
    conditions, so each is first in about a quarter of the rankings; repeats move each through the places."""
    conditions = ["full", "no_reflection", "no_reflection_planning", "persona_only"]
    firsts = [shown_order(conditions, "Isabella Rodriguez", f"q{index}", 0, seed=0)[0] for index in range(400)]
    assert sorted(set(firsts)) == sorted(conditions)
    assert all(0.17 < firsts.count(condition) / len(firsts) < 0.33 for condition in conditions)
    rotated = [shown_order(conditions, "Isabella Rodriguez", "q0", repeat, seed=0) for repeat in range(2)]
    assert rotated[1] == rotated[0][1:] + rotated[0][:1]


def _session(judge):
    """A session whose gateway is `judge(request) -> ranking` and whose one agent is Isabella."""

    async def ask(request, agent):
        return judge(request)

    identity = SimpleNamespace(describe=lambda: "Isabella Rodriguez, owner of Hobbs Cafe")
    model = SimpleNamespace(gateway=SimpleNamespace(ask=ask), by_name={"Isabella": SimpleNamespace(identity=identity)})
    return SimpleNamespace(model=model, _asked={}, reused=0)


@pytest.mark.parametrize(("judge", "tie"), [("offline", True), ("shown-order", False)])
def test_identical_conditions_are_judged_apart_and_only_a_fair_judge_ties_them(judge, tie):
    """Two conditions with the same answer are both shown to the judge; the check that they tie can fail."""
    answers = {"full": "I am planning a Valentine's Day party at Hobbs Cafe.", "persona_only": "I don't know."}
    answers["full_again"] = answers["full"]
    asked = []

    def rank(request):
        asked.extend(request.items())
        if judge == "offline":
            return request.parse(offline_answer(request, seed=0))
        return tuple(tuple((index,) for index in range(len(item.answers))) for item in request.items())

    records = []
    for repeat in range(2):  # each ranking of three questions asked at once, as a category's are
        items = [(f"q{number}", shown_order(list(answers), "Isabella", f"q{number}", repeat, seed=0))
                 for number in range(3 * repeat, 3 * repeat + 3)]  # fmt: skip
        asked_at_once = [("Isabella", question, "What's new?", order, answers) for question, order in items]
        batch = asyncio.run(_ranks(_session(rank), asked_at_once))
        records += [{"key": question, **record} for (question, _), record in zip(items, batch, strict=True)]
    assert len(asked) == 6 and all(len(request.answers) == 3 for request in asked)  # identical answers, two labels
    conditions = [CONDITIONS["full"], Condition("full_again", "again"), CONDITIONS["persona_only"]]
    ratings = {rating.condition: rating.mu for rating in condition_figures(conditions, records)[0]}
    assert (abs(ratings["full"] - ratings["full_again"]) < 0.1) is tie


def test_the_interval_over_a_few_seeds_is_t_and_covers_the_truth_95_percent_of_the_time():
    mean, low, high = t_interval([36, 40, 44, 48])
    half = stats.t.ppf(0.975, 3) * np.std([36, 40, 44, 48], ddof=1) / 2
    assert (mean, low, high) == pytest.approx((42, 42 - half, 42 + half))  # [33.8, 50.2], not the bootstrap's
    assert t_interval([0.3, 0.3]) == (0.3, 0.3, 0.3)
    draws = np.random.default_rng(1).normal(0.4, 0.1, size=(600, 4))
    covered = np.mean([low <= 0.4 <= high for _, low, high in map(t_interval, draws)])
    assert 0.93 < covered < 0.97
