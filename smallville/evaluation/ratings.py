"""TrueSkill-style ratings of the conditions from the judge's rankings (the paper's section 6.4).

openskill's Thurstone-Mosteller model is TrueSkill's (Gaussian performances, a rating as mu and sigma), with the
paper's defaults mu 25, sigma 25/3. Each ranking is one free-for-all match of the conditions it ranks, applied in
the given order, so the same rankings always give the same ratings.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


def rate(conditions: Sequence[str], rankings: Iterable[Sequence[str]]) -> list[Rating]:
    """Ratings per condition from rankings (each lists conditions from best to worst), in `conditions` order."""
    model = ThurstoneMostellerFull(mu=MU, sigma=SIGMA, tau=TAU)
    ratings = {name: model.rating(name=name) for name in conditions}
    for ranking in rankings:
        teams = [[ratings[name]] for name in ranking]
        updated = model.rate(teams, ranks=list(range(1, len(ranking) + 1)))
        for name, (rating,) in zip(ranking, updated, strict=True):
            ratings[name] = rating
    return [Rating(name, ratings[name].mu, ratings[name].sigma) for name in conditions]
