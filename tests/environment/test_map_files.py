import shutil

import pytest

from environment import MapError, load_ville

from .conftest import DATA


@pytest.fixture
def copy(tmp_path):
    shutil.copytree(DATA / "matrix", tmp_path / "matrix")
    return tmp_path


def _edit_layer(root, layer, edit):
    path = root / "matrix" / "maze" / f"{layer}_maze.csv"
    cells = path.read_text().strip().split(",")
    path.write_text(",".join(edit(cells)))
    return path


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (
            lambda root: _edit_layer(root, "arena", lambda cells: cells[:-1]),
            r"row 1 has 13999 codes, expected 140 x 100",
        ),
        (
            lambda root: _edit_layer(root, "sector", lambda cells: ["99999", *cells[1:]]),
            r"cell 0 \(x=0, y=0\) has code 99999, which its blocks file does not define",
        ),
        (
            lambda root: _edit_layer(root, "game_object", lambda cells: [*cells[:141], "oops", *cells[142:]]),
            r"cell 141 \(x=1, y=1\) is 'oops', not a code",
        ),
        (lambda root: (root / "matrix" / "maze" / "collision_maze.csv").unlink(), "collision_maze.csv: missing"),
        (
            lambda root: (root / "matrix" / "special_blocks" / "arena_blocks.csv").write_text("32138, the Ville\n"),
            "arena_blocks.csv: row 1 has 2 fields, expected a code and 3 names",
        ),
        (
            lambda root: (root / "matrix" / "special_blocks" / "sector_blocks.csv").write_text("abc, the Ville, x\n"),
            "sector_blocks.csv: row 1: the code 'abc' is not a number",
        ),
    ],
    ids=["wrong-length", "unknown-code", "not-a-code", "missing-file", "short-block-row", "bad-block-code"],
)
def test_a_broken_map_file_gives_a_clear_error(copy, break_it, message):
    break_it(copy)
    with pytest.raises(MapError, match=message):
        load_ville(copy)


def test_the_ville_loads_with_its_world_tree(ville):
    assert (ville.width, ville.height) == (140, 100)
    assert len(ville.sectors()) == 19
    assert sum(len(ville.arenas(sector)) for sector in ville.sectors()) == 63
    assert len(ville.object_addresses()) == 222
    # Names in the block tables carry stray spaces: "Ryan Park's apartment ".
    assert "Ryan Park's apartment" in ville.sectors()
