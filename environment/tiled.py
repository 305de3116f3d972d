"""Maps drawn in Tiled: a Tiled JSON map (.tmj) read into the original's five layers, and a map written back as one.

The original's authors drew the Ville in Tiled with five tile layers, "Collisions", "Sector Blocks", "Arena Blocks",
"Object Interaction Blocks" and "Spawning Blocks", and exported each layer's tile ids as the codes of its maze CSV;
the special_blocks CSVs beside the map name each code ("32135, the Ville, Hobbs Cafe"). This module reads such a
map: the tile id (flip bits cleared) of a tile is its code, 0 is nothing, any tile on "Collisions" is a wall. Every
mistake in the map raises a MapError on one line naming the layer and the tile (map_checks.py).
"""

import base64
import gzip
import json
import zlib
from pathlib import Path

import numpy as np

from environment.errors import MapError
from environment.map_checks import check_map
from environment.map_files import BLOCK_NAMES, read_blocks
from environment.tile_map import LAYERS, RawMap

# Tiled's layer name for each of the original's layers (the original's own names).
TILED_LAYERS = {
    "collision": "Collisions",
    "sector": "Sector Blocks",
    "arena": "Arena Blocks",
    "game_object": "Object Interaction Blocks",
    "spawning_location": "Spawning Blocks",
}
# The top three bits of a Tiled tile id flip or rotate the tile; the code is the rest.
_FLIP_BITS = 0x1FFFFFFF
FIX_TILED = "save the map from Tiled as JSON (File > Export As > .tmj), orthogonal and not infinite"


def read_tiled(path: Path, blocks_dir: Path | None = None) -> RawMap:
    """Read a Tiled JSON map and the special_blocks CSVs beside it, and check them against each other.

    Args:
        path: The .tmj (or .json) file.
        blocks_dir: The folder of the block tables; by default `special_blocks/` beside the map if it exists,
            else the map's own folder.

    Raises:
        MapError: One line naming the file, the layer and the tile (or the table's row) at fault.
    """
    path = Path(path)
    document = _read_json(path)
    width, height = _size(path, document)
    found = {layer.get("name"): layer for layer in _tile_layers(document.get("layers", []))}
    layers = {}
    for layer, tiled_name in TILED_LAYERS.items():
        if tiled_name not in found:
            names = ", ".join(repr(name) for name in found) or "none"
            raise MapError(
                path,
                f"layer {tiled_name!r}",
                f"is missing (the map's tile layers: {names})",
                "add a tile layer so named",
            )
        layers[layer] = _decode(path, found[tiled_name], width, height)
    blocks_dir = Path(blocks_dir) if blocks_dir else _blocks_folder(path)
    blocks = {layer: read_blocks(_table(blocks_dir, layer), layer) for layer in BLOCK_NAMES}
    world = _world(blocks_dir, blocks)
    raw = RawMap(world=world, width=width, height=height, layers=layers, blocks=blocks)
    check_map(raw, path, {layer: repr(name) for layer, name in TILED_LAYERS.items()}, _table_names(blocks_dir))
    return raw


def tiled_document(raw: RawMap, tileset: dict | None = None) -> dict:
    """A map as a Tiled JSON document: the five layers as tile layers whose tile ids are the codes.

    Args:
        raw: The map.
        tileset: A Tiled tileset entry to embed (with its "firstgid"); none by default, and then Tiled shows the
            codes as missing tiles until a tileset covering them is added.
    """
    layers = [
        {
            "id": number,
            "name": TILED_LAYERS[layer],
            "type": "tilelayer",
            "width": raw.width,
            "height": raw.height,
            "x": 0,
            "y": 0,
            "opacity": 1,
            "visible": True,
            "data": [int(code) for code in raw.layers[layer].ravel()],
        }
        for number, layer in enumerate(LAYERS, start=1)
    ]
    return {
        "type": "map",
        "version": "1.10",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": raw.width,
        "height": raw.height,
        "tilewidth": 32,
        "tileheight": 32,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": 1,
        "layers": layers,
        "tilesets": [tileset] if tileset else [],
    }


def _read_json(path: Path) -> dict:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(path, "", "no such map file", "give the path of a Tiled JSON map (.tmj)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MapError(path, "", f"is not a Tiled JSON map ({error})", FIX_TILED) from None
    if not isinstance(document, dict) or document.get("type", "map") != "map":
        raise MapError(path, "", "is not a Tiled JSON map (no map object at the top)", FIX_TILED)
    return document


def _size(path: Path, document: dict) -> tuple[int, int]:
    if document.get("infinite"):
        raise MapError(path, "", "is an infinite map, whose layers come in chunks", "uncheck Map > Infinite in Tiled")
    if document.get("orientation", "orthogonal") != "orthogonal":
        raise MapError(path, "", f"is {document['orientation']}, not orthogonal", FIX_TILED)
    width, height = document.get("width"), document.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise MapError(path, "", f"has no positive width and height (got {width!r} x {height!r})", FIX_TILED)
    return width, height


def _tile_layers(layers: list) -> list[dict]:
    """Every tile layer, those inside group layers included, in the map's order."""
    found = []
    for layer in layers:
        if isinstance(layer, dict) and layer.get("type") == "group":
            found.extend(_tile_layers(layer.get("layers", [])))
        elif isinstance(layer, dict) and layer.get("type") == "tilelayer":
            found.append(layer)
    return found


def _decode(path: Path, layer: dict, width: int, height: int) -> np.ndarray:
    """A tile layer's codes shaped (height, width): its tile ids without the flip bits."""
    where = f"layer {layer['name']!r}"
    data = layer.get("data")
    if isinstance(data, str):
        try:
            packed = base64.b64decode(data)
            compression = layer.get("compression", "")
            if compression == "zlib":
                packed = zlib.decompress(packed)
            elif compression == "gzip":
                packed = gzip.decompress(packed)
            elif compression:
                raise ValueError(f"compression {compression!r} is not read here")
            data = np.frombuffer(packed, dtype="<u4").tolist()
        except ValueError as error:
            raise MapError(
                path, where, f"cannot be decoded ({error})", "set Tile Layer Format to CSV or Base64 (zlib)"
            ) from None
    if not isinstance(data, list) or len(data) != width * height:
        count = len(data) if isinstance(data, list) else "no"
        problem = f"has {count} tiles, expected {width} x {height} = {width * height}"
        raise MapError(path, where, problem, "make the layer the size of the map (Map > Resize Map)")
    codes = np.array(data, dtype=np.int64) & _FLIP_BITS
    return codes.reshape(height, width)


def _blocks_folder(path: Path) -> Path:
    beside = path.parent / "special_blocks"
    return beside if beside.is_dir() else path.parent


def _table(folder: Path, layer: str) -> Path:
    return folder / f"{layer}_blocks.csv"


def _table_names(folder: Path) -> dict[str, str]:
    return {layer: _table(folder, layer).name for layer in BLOCK_NAMES}


def _world(folder: Path, blocks: dict[str, dict[int, tuple[str, ...]]]) -> str:
    """The one world the tables name."""
    worlds = sorted({names[0] for table in blocks.values() for names in table.values()})
    if len(worlds) != 1:
        fix = "name one world in every row of the special_blocks CSVs"
        raise MapError(_table(folder, "world"), "", f"the block tables name {len(worlds)} worlds {worlds}", fix)
    return worlds[0]
