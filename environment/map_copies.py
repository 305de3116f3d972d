"""A map laid several times side by side: a bigger town whose neighbourhoods are each a whole Ville.

The scale series asks what an agent-hour costs the engine as the town grows. On one Ville, more people crowd the same
cafe and meet more often, so each makes more calls; copies of the map keep each neighbourhood as crowded as the
original and leave the engine's own growth to be measured. Copy 0 is the map as read; copy k (k >= 1) lies to its
right, past a wall one tile wide (so no path and no look crosses from one copy to another), and names each of its
sectors with the copy's number ("Hobbs Cafe 2"); arenas and objects keep their names, as their addresses start with
the sector's.
"""

from dataclasses import replace

import numpy as np

from environment.tile_map import RawMap

SEPARATOR = 1  # wall tiles between two copies


def copy_sector_name(sector: str, copy: int) -> str:
    """A sector's name in copy `copy` of the map (0 is the original)."""
    return sector if copy == 0 else f"{sector} {copy + 1}"


def copy_offset(raw_width: int, copy: int) -> int:
    """How far right copy `copy` lies: add it to a tile's x in the original to get the tile in that copy."""
    return copy * (raw_width + SEPARATOR)


def side_by_side(raw: RawMap, copies: int) -> RawMap:
    """`copies` copies of `raw`, left to right, walled off from each other; `raw` itself when `copies` is 1.

    Raises:
        ValueError: If `copies` is below 1.
    """
    if copies < 1:
        raise ValueError(f"a map needs at least one copy (got {copies})")
    if copies == 1:
        return raw
    layers, blocks = {}, {}
    for layer, codes in raw.layers.items():
        table = raw.blocks.get(layer, {})
        step = max(table, default=0)  # copy k's codes are the original's plus k * step
        wall = np.ones if layer == "collision" else np.zeros
        parts = []
        for copy in range(copies):
            if copy:
                parts.append(wall((raw.height, SEPARATOR), dtype=codes.dtype))
            parts.append(codes if layer == "collision" else np.where(codes > 0, codes + copy * step, 0))
        layers[layer] = np.concatenate(parts, axis=1)
        if layer in raw.blocks:
            blocks[layer] = {
                code + copy * step: _copy_names(names, layer, copy)
                for copy in range(copies)
                for code, names in table.items()
            }
    blocks |= {layer: table for layer, table in raw.blocks.items() if layer not in blocks}
    return replace(raw, width=copy_offset(raw.width, copies - 1) + raw.width, layers=layers, blocks=blocks)


def _copy_names(names: tuple[str, ...], layer: str, copy: int) -> tuple[str, ...]:
    """A block row's names in copy `copy`: the sector renamed (object rows name no sector: "<all>")."""
    if layer in ("world", "game_object") or len(names) < 2:
        return names
    return (names[0], copy_sector_name(names[1], copy), *names[2:])
