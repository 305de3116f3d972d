"""The map laid side by side: each copy is the Ville again, with its sectors numbered, and no path between copies."""

import numpy as np
import pytest

from environment import PathFinder, copy_offset, copy_sector_name, load_ville

from .conftest import DATA


@pytest.fixture(scope="module")
def three(ville):
    return load_ville(DATA, copies=3)


def _moved(tile, copy, ville):
    return tile[0] + copy_offset(ville.width, copy), tile[1]


def test_each_copy_is_the_ville_with_its_sectors_numbered(ville, three):
    assert (three.width, three.height) == (3 * ville.width + 2, ville.height)
    assert len(three.sectors()) == 3 * len(ville.sectors())
    assert copy_sector_name("Hobbs Cafe", 0) == "Hobbs Cafe"
    for copy in range(3):
        for address in ("the Ville:Hobbs Cafe:cafe", "the Ville:Lin family's house:Mei and John Lin's bedroom:bed"):
            world, sector, rest = address.split(":", 2)
            moved = f"{world}:{copy_sector_name(sector, copy)}:{rest}"
            assert three.tiles_of(moved) == [_moved(tile, copy, ville) for tile in ville.tiles_of(address)]
        left, right = copy_offset(ville.width, copy), copy_offset(ville.width, copy) + ville.width
        assert np.array_equal(three.collision[:, left:right], ville.collision)
    assert three.collision[:, ville.width].all()  # the wall between copy 0 and copy 1
    assert three.place_at(_moved((72, 14), 2, ville)).sector == "Isabella Rodriguez's apartment 3"


def test_paths_stay_inside_a_copy(ville, three, paths):
    bed, cafe = (72, 14), ville.tiles_of("the Ville:Hobbs Cafe:cafe")[0]
    tiled = PathFinder(three)
    for copy in range(3):
        assert tiled.distance(_moved(bed, copy, ville), _moved(cafe, copy, ville)) == paths.distance(bed, cafe)
    assert tiled.distance(bed, _moved(cafe, 1, ville)) is None


def test_one_copy_is_the_map_itself(ville):
    assert load_ville(DATA, copies=1).sectors() == ville.sectors()
    with pytest.raises(ValueError, match="at least one copy"):
        load_ville(DATA, copies=0)


def test_a_distance_field_covers_its_own_copy_only(ville, three, paths):
    bed = (72, 14)
    field = PathFinder(three).distance_field([_moved(bed, 1, ville)])
    left, right = copy_offset(ville.width, 1), copy_offset(ville.width, 1) + ville.width
    assert np.array_equal(field[:, left:right], paths.distance_field([bed]))
    assert np.isinf(field[:, :left]).all() and np.isinf(field[:, right:]).all()
