"""The Ville's map as one PNG, drawn once per process from the map layers; the browser keeps it while agents move.

Sectors are filled with distinct pastel colours, each arena a shade of its sector's, arena borders and game
objects darker, walls dark grey; the streets (tiles of no sector) are a light green. Place names are not in the
picture: the map component lays them over it as text, so they stay sharp at any zoom.
"""

import io
from functools import cache

import numpy as np
from matplotlib import colormaps
from matplotlib.image import imsave

from environment import Ville

# Pixels per tile side in the background (140 x 100 tiles -> 1,120 x 800 pixels).
TILE_PIXELS = 8
STREETS = np.array([214, 232, 196])
WALLS = np.array([74, 78, 86])


def tile_colours(ville: Ville) -> np.ndarray:
    """One RGB colour per tile, (height, width, 3) uint8."""
    palette = np.array(
        [colormaps["Pastel1"](i)[:3] for i in range(9)]
        + [colormaps["Pastel2"](i)[:3] for i in range(8)]
        + [colormaps["Set3"](i)[:3] for i in range(12)]
    )
    sector, arena = ville.sector_index, ville.arena_index
    colours = np.empty((*sector.shape, 3))
    colours[:] = STREETS / 255
    inside = sector > 0
    colours[inside] = palette[(sector[inside] - 1) % len(palette)]
    # Arenas of a sector alternate between two shades, so rooms read apart.
    shade = np.where((arena % 2 == 0) & (arena > 0), 0.92, 1.0)
    colours *= shade[..., None]
    border = np.zeros(arena.shape, dtype=bool)
    border[:, 1:] |= arena[:, 1:] != arena[:, :-1]
    border[1:, :] |= arena[1:, :] != arena[:-1, :]
    colours[border & (arena > 0)] *= 0.8
    colours[ville.object_index > 0] *= 0.85
    rgb = np.clip(colours * 255, 0, 255).astype(np.uint8)
    rgb[ville.collision] = WALLS
    return rgb


@cache
def background_png(ville: Ville) -> bytes:
    """The map as a PNG of TILE_PIXELS per tile (about 30 KB; drawn once per map and process)."""
    pixels = np.repeat(np.repeat(tile_colours(ville), TILE_PIXELS, axis=0), TILE_PIXELS, axis=1)
    buffer = io.BytesIO()
    imsave(buffer, pixels, format="png")
    return buffer.getvalue()
