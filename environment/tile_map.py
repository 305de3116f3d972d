"""The map of the Ville as read from its files: five maze layers and their block tables, checked against each other.

Each file is read by map_files; here the layers and tables must agree: one world, every code of a layer defined
in its table, every arena inside a sector of the same name, every object inside an arena, every spawning point
inside the arena it names. Whatever disagrees raises a MapError naming the file and the row or cell.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from environment.errors import MapError
from environment.map_files import BLOCK_NAMES, read_blocks, read_layer, read_size

LAYERS = ("collision", "sector", "arena", "game_object", "spawning_location")


@dataclass(frozen=True)
class RawMap:
    """The map as read: layers shaped (height, width) indexed [y, x], and each layer's code -> names table."""

    world: str
    width: int
    height: int
    layers: dict[str, np.ndarray]
    blocks: dict[str, dict[int, tuple[str, ...]]]


def read_map(root: Path) -> RawMap:
    """Read and check the map under `root` (the folder holding matrix/).

    Raises:
        MapError: If a file is missing or malformed, or the files disagree with each other.
    """
    matrix = Path(root) / "matrix"
    width, height = read_size(matrix / "maze_meta_info.json")
    tables = {layer: matrix / "special_blocks" / f"{layer}_blocks.csv" for layer in BLOCK_NAMES}
    blocks = {layer: read_blocks(path, layer) for layer, path in tables.items()}
    world = _the_world(tables, blocks)
    _check_tables(tables, blocks)
    layers = {}
    for layer in LAYERS:
        path = matrix / "maze" / f"{layer}_maze.csv"
        layers[layer] = read_layer(path, width, height)
        if layer != "collision":
            _check_codes(path, layers[layer], blocks[layer])
    _check_nesting(matrix / "maze", layers, blocks)
    return RawMap(world=world, width=width, height=height, layers=layers, blocks=blocks)


def _the_world(tables: dict[str, Path], blocks: dict[str, dict[int, tuple[str, ...]]]) -> str:
    """The one world every table names."""
    worlds = sorted({names[0] for names in blocks["world"].values()})
    if len(worlds) != 1:
        raise MapError(tables["world"], "", f"names {len(worlds)} worlds {worlds}", "keep exactly one world row")
    for layer, table in blocks.items():
        for row, (code, names) in enumerate(table.items(), start=1):
            if names[0] != worlds[0]:
                raise MapError(
                    tables[layer], f"row {row} (code {code})", f"names the world {names[0]!r}", f"use {worlds[0]!r}"
                )
    return worlds[0]


def _check_tables(tables: dict[str, Path], blocks: dict[str, dict[int, tuple[str, ...]]]) -> None:
    """Every arena names a known sector; every spawning point a known arena."""
    sectors = {names[1] for names in blocks["sector"].values()}
    arenas = {names[1:3] for names in blocks["arena"].values()}
    for layer, known, what in (("arena", sectors, "sector"), ("spawning_location", arenas, "arena")):
        for row, (code, names) in enumerate(blocks[layer].items(), start=1):
            key = names[1] if layer == "arena" else names[1:3]
            if key not in known:
                raise MapError(
                    tables[layer],
                    f"row {row} (code {code})",
                    f"names the {what} {key!r}, which {what}_blocks.csv does not define",
                    f"add the {what} to its blocks file or fix the name",
                )


def _check_codes(path: Path, codes: np.ndarray, table: dict[int, tuple[str, ...]]) -> None:
    """Every non-zero code of a layer is defined in its block table."""
    unknown = ~np.isin(codes, np.array([0, *table]))
    if unknown.any():
        index = int(np.flatnonzero(unknown)[0])
        y, x = divmod(index, codes.shape[1])
        raise MapError(
            path,
            f"cell {index} (x={x}, y={y})",
            f"has code {codes[y, x]}, which its blocks file does not define ({int(unknown.sum())} such cells)",
            "add the code to the blocks file or fix the cell",
        )


def _check_nesting(folder: Path, layers: dict[str, np.ndarray], blocks: dict[str, dict[int, tuple]]) -> None:
    """Arenas lie in their sector, objects in an arena, spawning points in the arena they name."""
    sector = cell_names(layers["sector"], blocks["sector"], slice(1, 2))
    arena = cell_names(layers["arena"], blocks["arena"], slice(1, 3))
    checks = (
        ("arena", layers["arena"] > 0, cell_names(layers["arena"], blocks["arena"], slice(1, 2)), sector, "its sector"),
        ("game_object", layers["game_object"] > 0, None, arena, "an arena"),
        (
            "spawning_location",
            layers["spawning_location"] > 0,
            cell_names(layers["spawning_location"], blocks["spawning_location"], slice(1, 3)),
            arena,
            "the arena it names",
        ),
    )
    for layer, present, wanted, found, inside in checks:
        wrong = present & ((found == "") if wanted is None else (wanted != found))
        if wrong.any():
            index = int(np.flatnonzero(wrong)[0])
            y, x = divmod(index, wrong.shape[1])
            where = f"{found[y, x]!r}" if found[y, x] else "no place of the layer above"
            raise MapError(
                folder / f"{layer}_maze.csv",
                f"cell {index} (x={x}, y={y})",
                f"lies outside {inside} (that tile is in {where}; {int(wrong.sum())} such cells)",
                "fix the cell here or in the layer above so that the places nest",
            )


def cell_names(codes: np.ndarray, table: dict[int, tuple[str, ...]], part: slice) -> np.ndarray:
    """Each cell's names (the `part` of its block row, joined by ":"), "" where the cell holds 0."""
    unique, inverse = np.unique(codes, return_inverse=True)
    labels = np.array([":".join(table[int(code)][part]) if code else "" for code in unique], dtype=object)
    return labels[inverse].reshape(codes.shape)
