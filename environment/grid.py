"""The Mesa grid the agents stand on, for positions and drawing only (walls and paths are environment's)."""

import random

from mesa.discrete_space import OrthogonalMooreGrid

from environment.ville import Ville


def make_grid(ville: Ville, random: random.Random) -> OrthogonalMooreGrid:
    """A (width, height) OrthogonalMooreGrid; cells are addressed grid[(x, y)] like our tiles."""
    return OrthogonalMooreGrid((ville.width, ville.height), torus=False, capacity=None, random=random)
