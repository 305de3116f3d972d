"""The Mesa grid the agents stand on, for positions and drawing only (walls and paths are environment's).

Mesa is imported when a grid is made, not with the package: Mesa's import costs 1.4 s (scipy, pandas), which
`run.py --help` and the tests of the map would otherwise pay.
"""

import random
from typing import TYPE_CHECKING

from environment.ville import Ville

if TYPE_CHECKING:
    from mesa.discrete_space import OrthogonalMooreGrid

# Mesa's Moore offsets in its own order (OrthogonalMooreGrid._connect_cells_2d), so each cell's connections dict
# holds the same keys in the same order as Mesa's.
_MOORE_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def make_grid(ville: Ville, random: random.Random) -> "OrthogonalMooreGrid":
    """A (width, height) OrthogonalMooreGrid; cells are addressed grid[(x, y)] like our tiles."""
    from mesa.discrete_space import Cell, OrthogonalMooreGrid  # noqa: PLC0415 - see the module's docstring

    links_slot = Cell.__dict__["connections"]  # where Mesa's Cell keeps its links (a slot)
    dimensions = (ville.width, ville.height)
    cells: dict = {}  # the grid's own cells by coordinate (its dict, not a copy), once it is made

    class TownCell(Cell):
        """Mesa's cell, linked to its Moore neighbours when its links are first read, not when the grid is made.

        Linking every cell of the 1,000-person town (78,000 cells, 620,000 links) took 0.5-0.7 s of its start, and
        the town never reads a cell's links (sight and paths are environment's, on arrays): a cell read gets the
        same links, keys in the same order, as Mesa's grid gives it (tests/environment/test_grid.py).
        """

        __slots__ = ()

        @property
        def connections(self) -> dict:
            links = links_slot.__get__(self)
            if links is None:
                (i, j), (first, second) = self.coordinate, dimensions
                links = {
                    (di, dj): cells[i + di, j + dj]
                    for di, dj in _MOORE_OFFSETS
                    if 0 <= i + di < first and 0 <= j + dj < second
                }
                links_slot.__set__(self, links)
            return links

        @connections.setter
        def connections(self, links: dict) -> None:
            links_slot.__set__(self, links)

    class TownGrid(OrthogonalMooreGrid):
        """Mesa's Moore grid whose cells link themselves when first asked (TownCell)."""

        def _connect_cells_2d(self) -> None:
            nonlocal cells
            cells = self._cells
            for cell in self._celllist:
                links_slot.__set__(cell, None)  # not linked yet

    return TownGrid(dimensions, torus=False, capacity=None, random=random, cell_klass=TownCell)
