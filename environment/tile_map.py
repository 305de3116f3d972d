"""Reading the map files of the Ville: five maze layers (one row of codes each) and the block tables.

The files come from the original's Tiled export: `matrix/maze/<layer>_maze.csv` holds width x height codes in one
row, row-major; `matrix/special_blocks/<layer>_blocks.csv` maps a code to `world, sector[, arena[, object]]` (with
stray spaces, and object blocks naming their arena "<all>"). Every problem raises a MapError naming the file.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from environment.errors import MapError

LAYERS = ("collision", "sector", "arena", "game_object", "spawning_location")
# Names a block row holds after its code: world, sector, arena as the layer goes deeper; objects hold world,
# "<all>" and the object; spawning locations world, sector, arena and the spawn name.
BLOCK_FIELDS = {"world": 1, "sector": 2, "arena": 3, "game_object": 3, "spawning_location": 4}


@dataclass(frozen=True)
class RawMap:
    """The map as read: layers shaped (height, width) indexed [y, x], and each layer's code -> names table."""

    world: str
    width: int
    height: int
    layers: dict[str, np.ndarray]
    blocks: dict[str, dict[int, tuple[str, ...]]]


def read_map(root: Path) -> RawMap:
    """Read and validate the map under `root` (the folder holding matrix/).

    Raises:
        MapError: If a file is missing, a row is malformed, a layer has the wrong size or an unknown code.
    """
    matrix = root / "matrix"
    meta_path = matrix / "maze_meta_info.json"
    try:
        meta = json.loads(_read(meta_path))
        width, height = int(meta["maze_width"]), int(meta["maze_height"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise MapError(f"{meta_path}: needs maze_width and maze_height as numbers ({error})") from error
    blocks = {layer: read_blocks(matrix / "special_blocks" / f"{layer}_blocks.csv", layer) for layer in BLOCK_FIELDS}
    worlds = {names[0] for names in blocks["world"].values()}
    if len(worlds) != 1:
        raise MapError(f"{matrix / 'special_blocks' / 'world_blocks.csv'}: needs exactly one world, found {worlds}")
    layers = {}
    for layer in LAYERS:
        path = matrix / "maze" / f"{layer}_maze.csv"
        codes = read_layer(path, width, height)
        if layer != "collision":
            _check_codes(path, codes, blocks[layer], width)
        layers[layer] = codes
    return RawMap(world=worlds.pop(), width=width, height=height, layers=layers, blocks=blocks)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except FileNotFoundError as error:
        raise MapError(f"{path}: missing; the map needs this file (copy it from the original data)") from error


def read_layer(path: Path, width: int, height: int) -> np.ndarray:
    """One maze layer as an int array (height, width)."""
    text = _read(path).strip()
    rows = [row for row in text.splitlines() if row.strip()]
    if len(rows) != 1:
        raise MapError(f"{path}: expected one row of {width * height} codes, found {len(rows)} rows")
    cells = rows[0].split(",")
    if len(cells) != width * height:
        raise MapError(f"{path}: row 1 has {len(cells)} codes, expected {width} x {height} = {width * height}")
    try:
        codes = np.array([int(cell) for cell in cells], dtype=np.int64)
    except ValueError:
        index = next(i for i, cell in enumerate(cells) if not cell.strip().lstrip("-").isdigit())
        raise MapError(
            f"{path}: cell {index} (x={index % width}, y={index // width}) is {cells[index].strip()!r}, not a code"
        ) from None
    return codes.reshape(height, width)


def _check_codes(path: Path, codes: np.ndarray, table: dict[int, tuple[str, ...]], width: int) -> None:
    known = np.array([*sorted(table), 0])
    unknown = ~np.isin(codes, known)
    if unknown.any():
        y, x = (int(v) for v in np.argwhere(unknown)[0])
        raise MapError(
            f"{path}: cell {y * width + x} (x={x}, y={y}) has code {codes[y, x]}, which its blocks file does not "
            f"define ({int(unknown.sum())} such cells); add it to the blocks file or fix the cell"
        )


def read_blocks(path: Path, layer: str) -> dict[int, tuple[str, ...]]:
    """A block table: code -> names after the code (world, sector, ...), stripped of stray spaces."""
    table: dict[int, tuple[str, ...]] = {}
    for number, line in enumerate(_read(path).splitlines(), start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) < BLOCK_FIELDS[layer] + 1:
            raise MapError(
                f"{path}: row {number} has {len(fields)} fields, expected a code and {BLOCK_FIELDS[layer]} names"
            )
        try:
            code = int(fields[0])
        except ValueError:
            raise MapError(f"{path}: row {number}: the code {fields[0]!r} is not a number") from None
        if code in table:
            raise MapError(f"{path}: row {number}: code {code} is defined twice")
        if not all(fields[1 : BLOCK_FIELDS[layer] + 1]):
            raise MapError(f"{path}: row {number}: an empty name")
        table[code] = tuple(fields[1 : BLOCK_FIELDS[layer] + 1])
    return table
