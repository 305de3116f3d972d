"""TrueSkill-style ratings of the conditions from the judge's rankings (the paper's section 6.4), ties as draws.

openskill's Thurstone-Mosteller model is TrueSkill's (Gaussian performances, a rating as mu and sigma), with the
paper's defaults mu 25, sigma 25/3. Each ranking is one free-for-all match of the conditions it ranks, applied in
the given order, so the same rankings always give the same ratings. Conditions a ranking puts in one group (equally
good, or identical answers) share a rank: a draw, which moves neither ahead of the other.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import factorial

from openskill.models import ThurstoneMostellerFull

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


@dataclass(frozen=True)
class PositionBias:
    """How much a judge follows the order answers are shown in.

    Attributes:
        rankings: Rankings the judge was asked for (two or more different answers shown).
        kept_order: Share of them that return exactly the shown order, no ties.
        chance: The share a judge blind to the order would give: the mean of 1/n! over those rankings.
        first_best: Share whose first-shown answer came first (alone or tied).
        first_chance: The same by chance, blind to the order: the mean of 1/n.
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


def position_bias(records: Iterable[dict]) -> PositionBias:
    """Position bias of the judge over judgement records ("positions": groups of shown answers' indices)."""
    asked = [record["positions"] for record in records if record.get("distinct", 0) > 1 and "positions" in record]
    if not asked:
        return PositionBias(0, 0.0, 0.0, 0.0, 0.0)
    count = len(asked)
    kept = sum(1 for groups in asked if groups == [[index] for index in range(len(groups))])
    first = sum(1 for groups in asked if 0 in groups[0])
    sizes = [sum(len(group) for group in groups) for groups in asked]
    return PositionBias(
        rankings=count,
        kept_order=kept / count,
        chance=sum(1 / factorial(size) for size in sizes) / count,
        first_best=first / count,
        first_chance=sum(1 / size for size in sizes) / count,
    )
