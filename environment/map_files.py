"""Reading one map file at a time: the size file, a maze layer (one row of codes) and a block table.

The files come from the original's Tiled export: `matrix/maze/<layer>_maze.csv` holds width x height codes in one
row, row-major; `matrix/special_blocks/<layer>_blocks.csv` maps a code to `world, sector[, arena[, object]]`, with
stray spaces around names and no newline after the last row. Every problem raises a MapError naming the file,
the row or cell, what is wrong and how to fix it.
"""

import json
from pathlib import Path

import numpy as np

from environment.errors import MapError

# The names that follow the code in each block table's rows, as in the original's special_blocks files: object
# rows name their arena "<all>" (an object's sector and arena come from its tile); spawn rows end with the spawn
# point's name ("sp-A").
BLOCK_NAMES = {
    "world": ("world",),
    "sector": ("world", "sector"),
    "arena": ("world", "sector", "arena"),
    "game_object": ("world", "<all>", "object"),
    "spawning_location": ("world", "sector", "arena", "spawn name"),
}
RESTORE = "restore the file from the original data (data/the_ville/README.md says where it comes from)"


def read_text(path: Path) -> str:
    """A map file's text.

    Raises:
        MapError: If the file is missing or unreadable.
    """
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapError(path, "", "missing, and the map needs it", RESTORE) from None
    except (OSError, UnicodeDecodeError) as error:
        raise MapError(path, "", f"cannot be read ({error})", RESTORE) from None


def read_size(path: Path) -> tuple[int, int]:
    """The map's (width, height) from maze_meta_info.json.

    Raises:
        MapError: If the file is missing, not JSON, or lacks positive maze_width and maze_height.
    """
    try:
        meta = json.loads(read_text(path))
        width, height = int(meta["maze_width"]), int(meta["maze_height"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        fix = 'write it as JSON like {"maze_width": 140, "maze_height": 100}'
        raise MapError(path, "", f"needs maze_width and maze_height as numbers ({error!r})", fix) from None
    if width <= 0 or height <= 0:
        raise MapError(path, "", f"the size {width} x {height} is not positive", "give the map's size in tiles")
    return width, height


def read_layer(path: Path, width: int, height: int) -> np.ndarray:
    """One maze layer as an int array shaped (height, width), indexed [y, x].

    Raises:
        MapError: If the file is missing, has more than one row, the wrong number of codes, or a non-number.
    """
    rows = [row for row in read_text(path).splitlines() if row.strip()]
    if len(rows) != 1:
        raise MapError(
            path, "", f"has {len(rows)} rows, expected one row of {width * height} codes", "join the rows with commas"
        )
    cells = rows[0].split(",")
    if len(cells) != width * height:
        raise MapError(
            path,
            "row 1",
            f"has {len(cells)} codes, expected {width} x {height} = {width * height}",
            "the layer must cover every tile of the map, row by row (0 where the tile has nothing)",
        )
    try:
        codes = np.array(cells, dtype=np.int64)
    except ValueError:
        index = next(i for i, cell in enumerate(cells) if not cell.strip().lstrip("-").isdigit())
        raise MapError(
            path,
            f"cell {index} (x={index % width}, y={index // width})",
            f"{cells[index].strip()!r} is not a code",
            "put a whole number there (0 for nothing)",
        ) from None
    return codes.reshape(height, width)


def read_blocks(path: Path, layer: str) -> dict[int, tuple[str, ...]]:
    """A block table: code -> the names after it (world, sector, ...), stripped of stray spaces.

    Raises:
        MapError: If the file is missing, or a row has the wrong number of fields, a non-number code, a code
            defined twice or an empty name.
    """
    expected = len(BLOCK_NAMES[layer])
    shape = f"write the row as `code, {', '.join(BLOCK_NAMES[layer])}`"
    table: dict[int, tuple[str, ...]] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        where = f"row {number}"
        if len(fields) != expected + 1:
            raise MapError(
                path,
                where,
                f"has {len(fields)} fields, expected a code and {expected} names",
                shape,
            )
        try:
            code = int(fields[0])
        except ValueError:
            raise MapError(
                path, where, f"the code {fields[0]!r} is not a number", "start the row with its code"
            ) from None
        if code in table:
            raise MapError(path, where, f"code {code} is defined twice", "give each block its own code")
        if not all(fields[1:]):
            raise MapError(path, where, "has an empty name", shape)
        if any(":" in name for name in fields[1:]):
            raise MapError(path, where, "has a name with ':', which separates the parts of an address", "rename it")
        table[code] = tuple(fields[1:])
    return table
