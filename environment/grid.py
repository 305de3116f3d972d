"""The Mesa grid the agents stand on, for positions and drawing only (walls and paths are environment's).

Mesa is imported when a grid is made, not with the package: Mesa's import costs 1.4 s (scipy, pandas), which
`run.py --help` and the tests of the map would otherwise pay.
"""

import random
from typing import TYPE_CHECKING

from environment.ville import Ville

if TYPE_CHECKING:
    from mesa.discrete_space import OrthogonalMooreGrid


def make_grid(ville: Ville, random: random.Random) -> "OrthogonalMooreGrid":
    """A (width, height) OrthogonalMooreGrid; cells are addressed grid[(x, y)] like our tiles."""
    from mesa.discrete_space import OrthogonalMooreGrid  # noqa: PLC0415 - see the module's docstring

    return OrthogonalMooreGrid((ville.width, ville.height), torus=False, capacity=None, random=random)
