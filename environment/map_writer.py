"""Writing a map in the original's matrix format, the one every town folder holds and `load_ville` reads.

`<folder>/matrix/maze_meta_info.json` gives the size; `matrix/maze/<layer>_maze.csv` holds each layer's codes in one
row, row-major; `matrix/special_blocks/<layer>_blocks.csv` names each code, one "code, world, sector, ..." row each.
"""

import json
from pathlib import Path

from environment.tile_map import LAYERS, RawMap


def write_matrix(raw: RawMap, folder: Path) -> Path:
    """Write `raw` under `folder/matrix/` (folders made as needed); the matrix folder."""
    matrix = Path(folder) / "matrix"
    (matrix / "maze").mkdir(parents=True, exist_ok=True)
    (matrix / "special_blocks").mkdir(parents=True, exist_ok=True)
    size = {"world_name": raw.world, "maze_width": raw.width, "maze_height": raw.height, "sq_tile_size": 32}
    (matrix / "maze_meta_info.json").write_text(json.dumps(size, indent=2) + "\n")
    for layer in LAYERS:
        codes = ",".join(str(int(code)) for code in raw.layers[layer].ravel())
        (matrix / "maze" / f"{layer}_maze.csv").write_text(codes + "\n")
    tables = dict(raw.blocks)
    tables.setdefault("world", {})
    for layer, table in tables.items():
        write_blocks(table, matrix / "special_blocks" / f"{layer}_blocks.csv")
    return matrix


def write_blocks(table: dict[int, tuple[str, ...]], path: Path) -> None:
    """One block table: a "code, name, name, ..." row per code, in code order."""
    rows = [", ".join((str(code), *names)) for code, names in sorted(table.items())]
    Path(path).write_text("\n".join(rows) + "\n")
