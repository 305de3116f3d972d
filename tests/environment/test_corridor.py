"""A trip's own search (environment/corridor.py) gives the path a whole-map distance field gives, tile for tile."""

import numpy as np
import pytest

from environment import PathFinder, Unreachable
from environment import paths as paths_module


def _trips(ville, count: int, seed: int) -> list[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """Random walkable starts and addresses (objects, arenas and sectors: one goal tile or many)."""
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(~ville.collision)
    addresses = ville.object_addresses()
    arenas = sorted({address.rsplit(":", 1)[0] for address in addresses})
    sectors = sorted({address.rsplit(":", 1)[0] for address in arenas})
    places = addresses + arenas + sectors
    trips = []
    for _ in range(count):
        at = int(rng.integers(len(xs)))
        trips.append(((int(xs[at]), int(ys[at])), ville.tiles_of(places[int(rng.integers(len(places)))])))
    return trips


def _outcome(finder: PathFinder, start, goals) -> list[tuple[int, int]] | str:
    try:
        return finder.path_to_nearest(start, goals)
    except Unreachable:
        return "unreachable"


def test_trips_follow_the_whole_maps_field_tile_for_tile(ville):
    """Ties between equally short paths are broken as the field's descent breaks them (up, right, down, left)."""
    searched, whole = PathFinder(ville), PathFinder(ville)
    for start, goals in _trips(ville, 150, seed=3):
        whole.distance_field(goals)  # kept whole: its path is read off the complete field
        assert _outcome(searched, start, goals) == _outcome(whole, start, goals), (start, goals[:3])
    assert not searched._fields or len(searched._fields) < 150  # most trips searched alone, no field kept


@pytest.mark.slow  # searches whole-map fields
def test_a_long_detour_falls_back_to_a_field_with_the_same_path(ville, monkeypatch):
    trips = _trips(ville, 40, seed=11)
    expected = [_outcome(PathFinder(ville), start, goals) for start, goals in trips]
    monkeypatch.setattr(paths_module, "CORRIDOR_TILES", 3)  # every trip but the shortest too long for a search
    fallback = PathFinder(ville)
    assert [_outcome(fallback, start, goals) for start, goals in trips] == expected
    assert fallback._fields  # the fields were searched


def test_unreachable_trips_say_why_as_before(ville):
    finder = PathFinder(ville)
    with pytest.raises(Unreachable, match="no walkable path"):
        finder.path_to_nearest((78, 19), [(0, 0)])  # a goal walled off
    wall_y, wall_x = (int(v) for v in np.argwhere(ville.collision)[0])
    with pytest.raises(Unreachable, match="is a wall or off the map"):
        finder.path_to_nearest((wall_x, wall_y), [(78, 19)])
