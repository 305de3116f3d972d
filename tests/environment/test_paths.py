import networkx as nx
import numpy as np
import pytest

from environment import PathFinder, Unreachable

from .conftest import all_personas, persona_files

DESTINATIONS = ["the Ville:Hobbs Cafe", "the Ville:Oak Hill College", "the Ville:Johnson Park"]
CAFE_COUNTER = (78, 19)
KLAUS_BED = (127, 46)


@pytest.fixture(scope="module")
def graph(ville):
    """The same 4-connected graph of walkable tiles, built independently with networkx."""
    grid = nx.Graph()
    ys, xs = np.nonzero(~ville.collision)
    grid.add_nodes_from(zip(xs.tolist(), ys.tolist(), strict=True))
    for x, y in list(grid.nodes):
        for neighbour in ((x + 1, y), (x, y + 1)):
            if neighbour in grid:
                grid.add_edge((x, y), neighbour)
    return grid


def _check_walk(ville, start, path, goals):
    assert path[-1] in goals
    assert all(ville.is_walkable(tile) for tile in path)
    steps = zip([start, *path[:-1]], path, strict=True)
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in steps)


@pytest.mark.parametrize("destination", DESTINATIONS, ids=["hobbs-cafe", "oak-hill-college", "johnson-park"])
def test_paths_from_every_home_are_shortest_walks(ville, paths, graph, destination):
    goals = ville.tiles_of(destination)
    lengths = nx.multi_source_dijkstra_path_length(graph, {tile for tile in goals if tile in graph})
    homes = 0
    for name in all_personas():
        scratch, _ = persona_files(name)
        for start in ville.spawn_tiles(scratch["living_area"]):
            path = paths.path_to_nearest(start, goals)
            _check_walk(ville, start, path, set(goals))
            assert len(path) == lengths[start], (name, start)
            homes += 1
    assert homes >= 25


def test_paths_between_objects_equal_networkx(ville, paths, graph):
    rng = np.random.default_rng(7)
    addresses = ville.object_addresses()
    for _ in range(30):
        start_address, goal_address = (addresses[i] for i in rng.choice(len(addresses), 2, replace=False))
        start = next(tile for tile in ville.tiles_of(start_address) if ville.is_walkable(tile))
        goal = next(tile for tile in ville.tiles_of(goal_address) if ville.is_walkable(tile))
        path = paths.path(start, goal)
        expected = nx.shortest_path_length(graph, start, goal)
        assert len(path) == expected == paths.distance(start, goal), (start_address, goal_address)
        if path:
            _check_walk(ville, start, path, {goal})


def test_path_to_nearest_takes_the_closest_goal(paths):
    near, far = (78, 21), KLAUS_BED
    assert paths.path_to_nearest(CAFE_COUNTER, [far, near])[-1] == near
    assert paths.path_to_nearest(near, [far, near]) == []


def test_path_to_self_is_empty(paths):
    assert paths.path(CAFE_COUNTER, CAFE_COUNTER) == []
    assert paths.distance(CAFE_COUNTER, CAFE_COUNTER) == 0


@pytest.mark.parametrize(
    ("start", "goal"),
    [(CAFE_COUNTER, (0, 0)), ((0, 0), CAFE_COUNTER), (CAFE_COUNTER, (-3, 500))],
    ids=["walled-off-goal", "walled-off-start", "off-map-goal"],
)
def test_unreachable(paths, start, goal):
    assert paths.distance(start, goal) is None
    with pytest.raises(Unreachable):
        paths.path(start, goal)


def test_a_start_on_a_wall_is_unreachable(ville, paths):
    wall_y, wall_x = (int(v) for v in np.argwhere(ville.collision)[0])
    with pytest.raises(Unreachable, match="is a wall or off the map"):
        paths.path((wall_x, wall_y), CAFE_COUNTER)
    with pytest.raises(Unreachable):
        paths.path_to_nearest(CAFE_COUNTER, [])


def test_paths_are_deterministic_and_survive_a_small_cache(ville):
    first, second = PathFinder(ville), PathFinder(ville, cached_fields=1)
    goals = [KLAUS_BED, CAFE_COUNTER, (20, 65)]
    for _ in range(2):
        for goal in goals:
            assert first.path((72, 14), goal) == second.path((72, 14), goal)


def test_distance_fields_are_read_only(paths):
    field = paths.distance_field([CAFE_COUNTER])
    assert field[19, 78] == 0
    with pytest.raises(ValueError):
        field[0, 0] = 1


def test_a_search_stopped_near_the_start_gives_the_whole_maps_path_tile_for_tile(ville):
    """A path search stops once past its start (a big town's trips are short); the path, ties and all, is the one
    a search of the whole map gives, and a later start farther away searches again rather than reading the cut."""
    cut, whole = PathFinder(ville), PathFinder(ville)
    goals = ville.tiles_of("the Ville:Hobbs Cafe")
    whole.distance_field(goals)  # the whole map searched first: every later path reads the complete field
    for start in [(72, 14), KLAUS_BED, (20, 65), (80, 22)]:
        assert cut.path_to_nearest(start, goals) == whole.path_to_nearest(start, goals), start
        assert cut.distance(start, CAFE_COUNTER) == whole.distance(start, CAFE_COUNTER), start


@pytest.mark.slow  # searches every short trip of the Ville twice
def test_short_trips_searched_alone_are_the_whole_maps_paths_and_distances(ville):
    """A search cut short keeps only the box of the tiles it reached: every short trip and distance is still the one
    read from a search of the whole map."""
    rng = np.random.default_rng(5)
    ys, xs = np.nonzero(~ville.collision)
    whole = PathFinder(ville)
    for index in rng.choice(len(xs), size=40, replace=False):
        start = (int(xs[index]), int(ys[index]))
        goal = (start[0] + int(rng.integers(-6, 7)), start[1] + int(rng.integers(-6, 7)))
        if not ville.is_walkable(goal):
            continue
        cut = PathFinder(ville)  # nothing searched before: the search stops just past the start
        full = whole.distance_field([goal])  # the whole map searched: `whole` reads its paths from the full field
        try:
            expected = whole.path(start, goal)
        except Unreachable:
            with pytest.raises(Unreachable):
                cut.path(start, goal)
            continue
        assert cut.path(start, goal) == expected, (start, goal)
        assert PathFinder(ville).distance(start, goal) == whole.distance(start, goal) == len(expected)
        assert np.array_equal(cut.distance_field([goal]), full)
