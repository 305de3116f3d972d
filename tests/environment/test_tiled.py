"""Maps from Tiled: a .tmj with the original's five layers reads into the map the simulation loads, and each kind of
mistake in it is one line naming the layer and the tile."""

import base64
import json
import zlib
from pathlib import Path

import numpy as np
import pytest

from environment import (
    Building,
    MapError,
    Room,
    Ville,
    lay_out,
    load_ville,
    read_tiled,
    tiled_document,
    write_blocks,
    write_matrix,
)
from environment.tiled import TILED_LAYERS

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "towns" / "gull_harbor"


@pytest.fixture(scope="module")
def small_map():
    """Two houses, a cafe and a park, laid out."""
    return lay_out(
        "Testtown",
        [
            [
                Building(
                    "Ames family's house", (Room("Ann Ames's room", ("bed", "desk"), True), Room("kitchen", ("stove",)))
                ),
                Building("Bo Berg's house", (Room("Bo Berg's room", ("bed",), True),)),
                Building("Corner Cafe", (Room("cafe", ("behind the cafe counter", "cafe customer seating")),)),
                Building("Town Park", (Room("park", ("park bench",)),), open_air=True),
            ]
        ],
        seed=1,
    )


def save(raw, folder: Path, document: dict | None = None) -> Path:
    """The map as Tiled saves it, with its special_blocks tables beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "special_blocks").mkdir(exist_ok=True)
    for layer, table in raw.blocks.items():
        write_blocks(table, folder / "special_blocks" / f"{layer}_blocks.csv")
    path = folder / "map.tmj"
    path.write_text(json.dumps(document or tiled_document(raw)))
    return path


def layer_of(document: dict, name: str) -> dict:
    return next(layer for layer in document["layers"] if layer["name"] == name)


def test_a_tiled_map_reads_back_into_the_town_the_simulation_loads(small_map, tmp_path):
    raw = read_tiled(save(small_map, tmp_path / "drawn"))
    for layer, codes in small_map.layers.items():
        assert np.array_equal(raw.layers[layer], codes), layer
    write_matrix(raw, tmp_path / "town")
    ville = load_ville(tmp_path / "town")
    assert ville.world == "Testtown"
    assert set(ville.sectors()) == {"Ames family's house", "Bo Berg's house", "Corner Cafe", "Town Park"}
    assert ville.objects("Corner Cafe", "cafe") == ["behind the cafe counter", "cafe customer seating"]
    assert ville.spawn_tiles("Testtown:Ames family's house:Ann Ames's room")


def test_layers_in_groups_base64_zlib_and_flipped_tiles_read_as_codes(small_map, tmp_path):
    document = tiled_document(small_map)
    arena = layer_of(document, "Arena Blocks")
    packed = np.array(arena["data"], dtype="<u4") | np.where(np.array(arena["data"]) > 0, 0x80000000, 0).astype("<u4")
    arena |= {"data": base64.b64encode(zlib.compress(packed.tobytes())).decode(), "encoding": "base64"}
    arena["compression"] = "zlib"
    document["layers"] = [{"type": "group", "name": "blocks", "layers": document["layers"]}]
    raw = read_tiled(save(small_map, tmp_path, document))
    assert np.array_equal(raw.layers["arena"], small_map.layers["arena"])


def test_the_shipped_example_imports_to_the_town_folder_beside_it():
    raw = read_tiled(SHIPPED / "map.tmj")
    ville = Ville(raw)
    shipped = load_ville(SHIPPED)
    assert ville.tree == shipped.tree
    assert np.array_equal(ville.collision, shipped.collision)


def _missing_layer(document, raw):
    document["layers"] = [layer for layer in document["layers"] if layer["name"] != "Arena Blocks"]


def _unnamed_code(document, raw):
    layer_of(document, "Sector Blocks")["data"][0] = 999


def _object_outside(document, raw):
    layer_of(document, "Object Interaction Blocks")["data"][raw.width + 1] = next(iter(raw.blocks["game_object"]))


def _walled_in(document, raw):
    """Wall every door of the cafe (its sector's walls closed)."""
    sector = next(code for code, names in raw.blocks["sector"].items() if names[1] == "Corner Cafe")
    sectors = np.array(layer_of(document, "Sector Blocks")["data"]).reshape(raw.height, raw.width)
    collisions = np.array(layer_of(document, "Collisions")["data"]).reshape(raw.height, raw.width)
    ys, xs = np.nonzero(sectors == sector)
    border = (ys == ys.min()) | (ys == ys.max()) | (xs == xs.min()) | (xs == xs.max())
    collisions[ys[border], xs[border]] = 1
    layer_of(document, "Collisions")["data"] = collisions.ravel().tolist()


def _spawn_in_wall(document, raw):
    spawns = layer_of(document, "Spawning Blocks")["data"]
    layer_of(document, "Collisions")["data"][next(i for i, code in enumerate(spawns) if code)] = 1


@pytest.mark.parametrize(
    ("damage", "layer", "says"),
    [
        (_missing_layer, "Arena Blocks", "is missing"),
        (_unnamed_code, "Sector Blocks", "code 999 has no name in sector_blocks.csv"),
        (_object_outside, "Object Interaction Blocks", "lies outside every arena"),
        (_walled_in, "Arena Blocks", "'Corner Cafe:cafe' has no way in"),
        (_spawn_in_wall, "Spawning Blocks", "is in a wall"),
    ],
    ids=[
        "layer missing",
        "code without a name",
        "object outside every arena",
        "arena with no way in",
        "spawning tile in a wall",
    ],
)
def test_each_map_mistake_is_one_line_naming_the_layer_and_the_tile(small_map, tmp_path, damage, layer, says):
    document = tiled_document(small_map)
    damage(document, small_map)
    with pytest.raises(MapError) as raised:
        read_tiled(save(small_map, tmp_path, document))
    message = str(raised.value)
    assert "\n" not in message
    assert f"layer {layer!r}" in message and says in message
    if says != "is missing":
        assert "tile (x=" in message


def test_a_missing_blocks_table_names_the_file(small_map, tmp_path):
    path = save(small_map, tmp_path)
    (tmp_path / "special_blocks" / "arena_blocks.csv").unlink()
    with pytest.raises(MapError, match=r"arena_blocks\.csv: missing"):
        read_tiled(path)


def test_every_layer_has_the_originals_name():
    assert sorted(TILED_LAYERS.values()) == sorted(
        ["Collisions", "Sector Blocks", "Arena Blocks", "Object Interaction Blocks", "Spawning Blocks"]
    )


def test_the_ville_drawn_as_a_tiled_map_passes_every_check_and_reads_back(tmp_path):
    from environment.tile_map import read_map

    ville = Path(__file__).resolve().parents[2] / "data" / "the_ville"
    original = read_map(ville)
    (tmp_path / "map.tmj").write_text(json.dumps(tiled_document(original)))
    raw = read_tiled(tmp_path / "map.tmj", ville / "matrix" / "special_blocks")
    assert raw.world == "the Ville"
    for layer, codes in original.layers.items():
        assert np.array_equal(raw.layers[layer], codes), layer
