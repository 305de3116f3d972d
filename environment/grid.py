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
    from mesa.discrete_space import OrthogonalMooreGrid  # noqa: PLC0415 - see the module's docstring

    class TownGrid(OrthogonalMooreGrid):
        """Mesa's Moore grid with the same links, made without Mesa's per-link cache clearing.

        Mesa links a cell with `Cell.connect`, which empties two neighbourhood caches at each of the 8 links of every
        cell: at 1,000 people (78,000 cells) that was 2.3 s of the town's start, and a new cell has nothing cached.
        """

        def _connect_cells_2d(self) -> None:
            cells, (first, second) = self._cells, self.dimensions
            for (i, j), cell in cells.items():
                cell.connections = {
                    (di, dj): cells[i + di, j + dj]
                    for di, dj in _MOORE_OFFSETS
                    if 0 <= i + di < first and 0 <= j + dj < second
                }

    return TownGrid((ville.width, ville.height), torus=False, capacity=None, random=random)
