"""TrueSkill-style ratings of the conditions from the judge's rankings (the paper's section 6.4), ties as draws.

openskill's Thurstone-Mosteller model is TrueSkill's (Gaussian performances, a rating as mu and sigma), with the
paper's defaults mu 25, sigma 25/3. Each ranking is one free-for-all match of the conditions it ranks, applied in
the given order, so the same rankings always give the same ratings. Conditions a ranking puts in one group (equally
good, or identical answers) share a rank: a draw, which moves neither ahead of the other.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb, factorial, prod

from openskill.models import ThurstoneMostellerFull
from scipy import stats

# The paper's (and TrueSkill's) defaults.
MU = 25.0
SIGMA = MU / 3
# No skill drift between matches: a condition does not change while it is judged. With the library's default
# (25/300) the last judgements weigh most, and on 1,250 offline rankings the order of the mu values no longer
# followed the mean ranks.
TAU = 0.0


@dataclass(frozen=True)
class Rating:
    """A condition's rating: mean skill and its uncertainty."""

    condition: str
    mu: float
    sigma: float


def rate(conditions: Sequence[str], rankings: Iterable[Sequence[Sequence[str]]]) -> list[Rating]:
    """Ratings per condition from rankings (groups of conditions from best to worst), in `conditions` order."""
    model = ThurstoneMostellerFull(mu=MU, sigma=SIGMA, tau=TAU)
    ratings = {name: model.rating(name=name) for name in conditions}
    for groups in rankings:
        if len(groups) < 2:
            continue  # all tied: a draw of everyone changes no mean, only shrinks sigma; not a match
        teams = [[ratings[name]] for group in groups for name in group]
        ranks = [place for place, group in enumerate(groups, start=1) for _ in group]
        updated = model.rate(teams, ranks=ranks)
        for name, (rating,) in zip([name for group in groups for name in group], updated, strict=True):
            ratings[name] = rating
    return [Rating(name, ratings[name].mu, ratings[name].sigma) for name in conditions]


def positions_of(groups: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each condition's place in a ranking, tied ones sharing the mean of their places (1.5 for two tied first)."""
    places, start = {}, 1
    for group in groups:
        for name in group:
            places[name] = start + (len(group) - 1) / 2
        start += len(group)
    return places


def _first_group_chance(size: int, first: int, favoured: int = 1) -> float:
    """The chance a judge blind to what is tested puts one of `favoured` answers of `size` in its first group.

    With a first group of `first`: 1 - C(size - favoured, first) / C(size, first).
    """
    return 1 - comb(size - favoured, first) / comb(size, first)


@dataclass(frozen=True)
class PositionBias:
    """How much a judge follows the order answers are shown in.

    Each share comes with the share a judge blind to the order would give, with the same groups (ties) it made.

    Attributes:
        rankings: Rankings the judge was asked for (two or more different answers shown).
        kept_order: Share of them that never put a later shown answer above an earlier one.
        chance: The same for a judge blind to the order: the mean of 1 / (n! / (g1! g2! ...)) over the rankings.
        first_best: Share whose first-shown answer came first (alone or tied).
        first_chance: The same by chance: the mean of (size of the first group) / n.
    """

    rankings: int
    kept_order: float
    chance: float
    first_best: float
    first_chance: float

    def text(self) -> str:
        """One line for the summary."""
        if not self.rankings:
            return "position bias: no ranking had two different answers to order"
        return (
            f"position bias: {100 * self.kept_order:.1f}% of {self.rankings} rankings kept the shown order "
            f"(chance {100 * self.chance:.1f}%); the first shown came first in {100 * self.first_best:.1f}% "
            f"(chance {100 * self.first_chance:.1f}%)"
        )


def _asked(records: Iterable[dict]) -> list[dict]:
    return [record for record in records if record.get("distinct", 0) > 1 and "positions" in record]


def position_bias(records: Iterable[dict]) -> PositionBias:
    """Position bias of the judge over judgement records ("positions": groups of shown answers' indices)."""
    asked = [record["positions"] for record in _asked(records)]
    if not asked:
        return PositionBias(0, 0.0, 0.0, 0.0, 0.0)
    count = len(asked)
    kept = sum(1 for groups in asked if _in_shown_order(groups))
    sizes = [sum(len(group) for group in groups) for groups in asked]
    pairs = zip(sizes, asked, strict=True)
    orders = [factorial(size) / prod(factorial(len(group)) for group in groups) for size, groups in pairs]
    return PositionBias(
        rankings=count,
        kept_order=kept / count,
        chance=sum(1 / order for order in orders) / count,
        first_best=sum(1 for groups in asked if 0 in groups[0]) / count,
        first_chance=sum(len(groups[0]) / size for groups, size in zip(asked, sizes, strict=True)) / count,
    )


def _in_shown_order(groups: Sequence[Sequence[int]]) -> bool:
    """No answer shown later is ranked above one shown earlier."""
    flat = [index for group in groups for index in sorted(group)]
    return flat == sorted(flat)


@dataclass(frozen=True)
class LengthBias:
    """How much a judge rewards length: how often the longest answer came first, beside chance.

    Attributes:
        rankings: Rankings asked of the judge whose answers differ in length.
        longest_first: Share whose longest answer (one of them, if several) came first, alone or tied.
        chance: The same for a judge blind to length, with the same ties: the mean of
            1 - C(n - l, g) / C(n, g) (l answers of the greatest length, a first group of g).
        correlation: Mean Kendall tau between an answer's length and how high it was placed (0: blind to length).
    """

    rankings: int
    longest_first: float
    chance: float
    correlation: float

    def text(self) -> str:
        """One line for the summary."""
        if not self.rankings:
            return "length bias: no ranking had answers of different lengths"
        return (
            f"length bias: the longest answer came first in {100 * self.longest_first:.1f}% of {self.rankings} "
            f"rankings (chance {100 * self.chance:.1f}%); Kendall tau of length and place {self.correlation:+.2f}"
        )


def length_bias(records: Iterable[dict]) -> LengthBias:
    """Length bias of the judge over judgement records that hold the shown answers' lengths ("lengths")."""
    asked = [r for r in _asked(records) if "lengths" in r and len(set(r["lengths"])) > 1]
    if not asked:
        return LengthBias(0, 0.0, 0.0, 0.0)
    won, chance, taus = 0, 0.0, []
    for record in asked:
        lengths, groups = record["lengths"], record["positions"]
        longest = {index for index, length in enumerate(lengths) if length == max(lengths)}
        won += bool(longest & set(groups[0]))
        chance += _first_group_chance(len(lengths), len(groups[0]), len(longest))
        height = {index: -place for place, group in enumerate(groups) for index in group}
        tau = stats.kendalltau(lengths, [height[index] for index in range(len(lengths))]).statistic
        taus.append(0.0 if math.isnan(tau) else float(tau))  # NaN (all tied): no preference either way
    count = len(asked)
    return LengthBias(count, won / count, chance / count, sum(taus) / count)
