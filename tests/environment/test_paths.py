import networkx as nx
import numpy as np
import pytest

from environment import Unreachable

from .conftest import all_personas, persona_files

DESTINATIONS = ["the Ville:Hobbs Cafe", "the Ville:Oak Hill College", "the Ville:Johnson Park"]


@pytest.fixture(scope="module")
def graph(ville):
    walkable = ~ville.collision
    grid = nx.Graph()
    ys, xs = np.nonzero(walkable)
    grid.add_nodes_from(zip(xs.tolist(), ys.tolist(), strict=True))
    for x, y in list(grid.nodes):
        for nx_, ny in ((x + 1, y), (x, y + 1)):
            if (nx_, ny) in grid:
                grid.add_edge((x, y), (nx_, ny))
    return grid


@pytest.mark.parametrize("destination", DESTINATIONS, ids=["hobbs-cafe", "oak-hill-college", "johnson-park"])
def test_paths_from_every_home(ville, paths, graph, destination):
    goals = ville.tiles_of(destination)
    lengths = nx.multi_source_dijkstra_path_length(graph, {tile for tile in goals if tile in graph})
    for name in all_personas():
        scratch, _ = persona_files(name)
        start = next(tile for tile in ville.tiles_of(scratch["living_area"]) if ville.is_walkable(tile))
        path = paths.path_to_nearest(start, goals)
        assert path[-1] in goals
        assert all(ville.is_walkable(tile) for tile in path)
        steps = zip([start, *path[:-1]], path, strict=True)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in steps)
        assert len(path) == lengths[start], name


def test_path_to_self_is_empty(paths):
    assert paths.path((78, 19), (78, 19)) == []


def test_unreachable(paths, ville):
    assert paths.distance((78, 19), (0, 0)) is None
    with pytest.raises(Unreachable):
        paths.path((78, 19), (0, 0))


def test_paths_are_deterministic(ville):
    from environment import PathFinder

    first, second = PathFinder(ville), PathFinder(ville)
    assert first.path((72, 14), (126, 46)) == second.path((72, 14), (126, 46))
