import shutil

import pytest

from environment import MapError, load_ville

from .conftest import DATA

MAZE = ("matrix", "maze")
BLOCKS = ("matrix", "special_blocks")


@pytest.fixture
def copy(tmp_path):
    shutil.copytree(DATA / "matrix", tmp_path / "matrix")
    return tmp_path


def _edit_layer(root, layer, edit):
    path = root.joinpath(*MAZE, f"{layer}_maze.csv")
    path.write_text(",".join(edit(path.read_text().strip().split(","))))


def _set_cell(layer, index, value):
    return lambda root: _edit_layer(root, layer, lambda cells: [*cells[:index], value, *cells[index + 1 :]])


def _write_blocks(layer, text):
    return lambda root: root.joinpath(*BLOCKS, f"{layer}_blocks.csv").write_text(text)


def _append_blocks(layer, row):
    def edit(root):
        path = root.joinpath(*BLOCKS, f"{layer}_blocks.csv")
        path.write_text(path.read_text().rstrip("\n") + "\n" + row)

    return edit


# A cell of Hobbs Cafe's piano (x=82, y=26) and an off-the-tree cell (x=0, y=0).
PIANO_CELL = 26 * 140 + 82
STREET_CELL = 0

CASES = {
    "wrong-length": (
        lambda root: _edit_layer(root, "arena", lambda cells: cells[:-1]),
        "arena_maze.csv",
        "row 1",
        "has 13999 codes, expected 140 x 100 = 14000",
    ),
    "two-rows": (
        lambda root: root.joinpath(*MAZE, "sector_maze.csv").write_text("0,0\n0,0"),
        "sector_maze.csv",
        "",
        "has 2 rows, expected one row of 14000 codes",
    ),
    "unknown-code": (
        _set_cell("sector", 0, "99999"),
        "sector_maze.csv",
        "cell 0 (x=0, y=0)",
        "has code 99999, which its blocks file does not define",
    ),
    "not-a-code": (
        _set_cell("game_object", 141, "oops"),
        "game_object_maze.csv",
        "cell 141 (x=1, y=1)",
        "'oops' is not a code",
    ),
    "missing-layer": (
        lambda root: root.joinpath(*MAZE, "collision_maze.csv").unlink(),
        "collision_maze.csv",
        "",
        "missing",
    ),
    "missing-blocks": (
        lambda root: root.joinpath(*BLOCKS, "game_object_blocks.csv").unlink(),
        "game_object_blocks.csv",
        "",
        "missing",
    ),
    "missing-size": (
        lambda root: root.joinpath("matrix", "maze_meta_info.json").unlink(),
        "maze_meta_info.json",
        "",
        "missing",
    ),
    "size-not-json": (
        lambda root: root.joinpath("matrix", "maze_meta_info.json").write_text('{"maze_width": 140'),
        "maze_meta_info.json",
        "",
        "needs maze_width and maze_height as numbers",
    ),
    "short-block-row": (
        _append_blocks("arena", "40000, the Ville"),
        "arena_blocks.csv",
        "row 64",
        "has 2 fields, expected a code and 3 names",
    ),
    "long-block-row": (
        _write_blocks("sector", "32135, the Ville, Hobbs Cafe, cafe"),
        "sector_blocks.csv",
        "row 1",
        "has 4 fields, expected a code and 2 names",
    ),
    "block-code-not-a-number": (
        _write_blocks("sector", "abc, the Ville, Hobbs Cafe"),
        "sector_blocks.csv",
        "row 1",
        "the code 'abc' is not a number",
    ),
    "block-code-twice": (
        _write_blocks("world", "32134, the Ville\n32134, the Ville"),
        "world_blocks.csv",
        "row 2",
        "code 32134 is defined twice",
    ),
    "empty-block-name": (
        _append_blocks("sector", "40000, the Ville,  "),
        "sector_blocks.csv",
        "row 20",
        "has an empty name",
    ),
    "second-world": (
        _append_blocks("world", "40000, the Town"),
        "world_blocks.csv",
        "",
        "names 2 worlds",
    ),
    "arena-of-unknown-sector": (
        _append_blocks("arena", "40000, the Ville, Town Hall, lobby"),
        "arena_blocks.csv",
        "row 64 (code 40000)",
        "names the sector 'Town Hall', which sector_blocks.csv does not define",
    ),
    "object-off-any-arena": (
        _set_cell("game_object", STREET_CELL, "32227"),
        "game_object_maze.csv",
        "cell 0 (x=0, y=0)",
        "lies outside an arena",
    ),
    "arena-in-wrong-sector": (
        lambda root: (
            _append_blocks("arena", "40000, the Ville, Johnson Park, bandstand")(root),
            _set_cell("arena", PIANO_CELL, "40000")(root),
        ),
        "arena_maze.csv",
        f"cell {PIANO_CELL} (x=82, y=26)",
        "lies outside its sector (that tile is in 'Hobbs Cafe'",
    ),
}


@pytest.mark.parametrize(("break_it", "file", "row", "problem"), CASES.values(), ids=CASES.keys())
def test_a_broken_map_file_names_the_file_the_row_and_the_problem(copy, break_it, file, row, problem):
    break_it(copy)
    with pytest.raises(MapError) as caught:
        load_ville(copy)
    error = caught.value
    assert error.file.name == file
    assert error.row == row
    assert problem in error.problem
    assert error.fix
    assert str(error).startswith(f"{error.file}: {row + ': ' if row else ''}{error.problem}; ")


def test_the_original_map_loads_with_its_world_tree(ville):
    assert (ville.width, ville.height) == (140, 100)
    assert ville.collision.shape == (100, 140) and ville.collision.dtype == bool
    assert len(ville.sectors()) == 19
    assert sum(len(ville.arenas(sector)) for sector in ville.sectors()) == 63
    assert len(ville.object_addresses()) == 222
    assert len(set(ville.object_addresses())) == 222
    # Names in the block tables carry stray spaces: "Ryan Park's apartment ".
    assert "Ryan Park's apartment" in ville.sectors()
    assert sorted(ville.objects("Hobbs Cafe", "cafe")) == [
        "behind the cafe counter",
        "cafe customer seating",
        "cooking area",
        "kitchen sink",
        "piano",
        "refrigerator",
    ]


def test_block_rows_without_a_final_newline_and_with_stray_spaces_load(copy):
    path = copy.joinpath(*BLOCKS, "sector_blocks.csv")
    path.write_text("\n".join(f"  {line}  " for line in path.read_text().splitlines()))
    assert "Hobbs Cafe" in load_ville(copy).sectors()
