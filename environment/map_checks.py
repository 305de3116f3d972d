"""Checks of a whole map, in the words of the tool it was drawn in: each mistake is one line naming the layer and tile.

A map drawn by hand goes wrong in a few ways: a tile whose code no table names, places that do not nest (an object
outside every arena, an arena outside its sector), a spawning point in a wall, and a room nobody can walk into. The
first of these found is raised as a MapError; a map that passes loads, and every place on it can be walked to.
"""

from pathlib import Path

import numpy as np
from scipy import ndimage

from environment.errors import MapError
from environment.tile_map import RawMap, cell_names

# The 4-connected neighbourhood agents walk (environment/paths.py).
_STEPS = ndimage.generate_binary_structure(2, 1)


def check_map(raw: RawMap, source: Path, layer_names: dict[str, str], table_names: dict[str, str]) -> None:
    """Check a map's layers against its tables and its places against its walls.

    Args:
        raw: The map.
        source: The file it came from, for the message.
        layer_names: How the message names each layer ("'Arena Blocks'").
        table_names: How the message names each layer's table ("arena_blocks.csv").

    Raises:
        MapError: The first mistake: `source: layer ..., tile (x=.., y=..): what; fix`.
    """
    for layer in ("sector", "arena", "game_object", "spawning_location"):
        _check_codes(raw, layer, source, layer_names[layer], table_names[layer])
    _check_nesting(raw, source, layer_names)
    _check_ways_in(raw, source, layer_names)


def _refuse_at(source: Path, layer_name: str, wrong: np.ndarray, problem, fix) -> None:
    """Raise the MapError of the first wrong tile, if any: `problem(x, y, count)` says what, `fix(x, y)` the fix."""
    if not wrong.any():
        return
    ys, xs = np.nonzero(wrong)
    x, y = int(xs[0]), int(ys[0])
    raise MapError(source, f"layer {layer_name}, tile (x={x}, y={y})", problem(x, y, int(wrong.sum())), fix(x, y))


def _check_codes(raw: RawMap, layer: str, source: Path, layer_name: str, table_name: str) -> None:
    codes, table = raw.layers[layer], raw.blocks[layer]
    unknown = (codes > 0) & ~np.isin(codes, np.array(sorted(table) or [0]))
    _refuse_at(
        source,
        layer_name,
        unknown,
        lambda x, y, count: f"code {codes[y, x]} has no name in {table_name} ({count} such tiles)",
        lambda x, y: f"add a row for code {codes[y, x]} to {table_name} or erase the tile",
    )


def _check_nesting(raw: RawMap, source: Path, layer_names: dict[str, str]) -> None:
    layers, blocks = raw.layers, raw.blocks
    sector = cell_names(layers["sector"], blocks["sector"], slice(1, 2))
    arena = cell_names(layers["arena"], blocks["arena"], slice(1, 3))
    arena_sector = cell_names(layers["arena"], blocks["arena"], slice(1, 2))
    _refuse_at(
        source,
        layer_names["arena"],
        (layers["arena"] > 0) & (arena_sector != sector),
        lambda x, y, count: (
            f"arena {arena[y, x]!r} lies in "
            f"{f'sector {sector[y, x]!r}' if sector[y, x] else 'no sector'} ({count} such tiles)"
        ),
        lambda x, y: f"paint the tile on {layer_names['sector']} as its sector or move the arena",
    )
    objects = layers["game_object"]
    _refuse_at(
        source,
        layer_names["game_object"],
        (objects > 0) & (arena == ""),
        lambda x, y, count: (
            f"object {blocks['game_object'][int(objects[y, x])][2]!r} lies outside every arena ({count} such tiles)"
        ),
        lambda x, y: f"paint an arena under it on {layer_names['arena']} or erase the object",
    )
    spawns = layers["spawning_location"] > 0
    named = cell_names(layers["spawning_location"], blocks["spawning_location"], slice(1, 3))
    _refuse_at(
        source,
        layer_names["spawning_location"],
        spawns & (named != arena),
        lambda x, y, count: (
            f"the spawning point of {named[y, x]!r} lies in {arena[y, x] or 'no arena'!r} ({count} such tiles)"
        ),
        lambda x, y: "move the spawning point into the arena its row names",
    )
    _refuse_at(
        source,
        layer_names["spawning_location"],
        spawns & (layers["collision"] != 0),
        lambda x, y, count: f"the spawning point of {named[y, x]!r} is in a wall ({count} such tiles)",
        lambda x, y: f"erase the wall there on {layer_names['collision']} or move the spawning point",
    )


def _check_ways_in(raw: RawMap, source: Path, layer_names: dict[str, str]) -> None:
    """Every arena has a walkable tile in the town's walkable part (the one that holds most spawning points)."""
    walkable = raw.layers["collision"] == 0
    labels, count = ndimage.label(walkable, structure=_STEPS)
    if count == 0:
        raise MapError(source, f"layer {layer_names['collision']}", "walls every tile", "leave floors and streets free")
    spawn_parts = labels[(raw.layers["spawning_location"] > 0) & walkable]
    weights = np.bincount(spawn_parts, minlength=count + 1)[1:] if spawn_parts.size else None
    sizes = np.bincount(labels.ravel(), minlength=count + 1)[1:]
    town = 1 + int(np.argmax(weights if weights is not None and weights.any() else sizes))
    arena = raw.layers["arena"]
    reachable = np.unique(arena[(labels == town) & (arena > 0)])
    stranded = (arena > 0) & ~np.isin(arena, reachable)
    _refuse_at(
        source,
        layer_names["arena"],
        stranded,
        lambda x, y, count: (
            f"arena {':'.join(raw.blocks['arena'][int(arena[y, x])][1:3])!r} has no way in: none of "
            "its tiles can be walked to from the rest of the town"
        ),
        lambda x, y: f"open a door in its walls on {layer_names['collision']}",
    )
