"""Environment benchmarks: map load, path queries, sight, grid. Targets: load < 1 s; a path query < 1 ms."""

import random
import statistics
import time
from pathlib import Path

from environment import PathFinder, WorldState, load_ville, make_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "the_ville"
RUNS = 5


def timed(function, repeat=1):
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    loads = [timed(lambda: load_ville(DATA)) for _ in range(RUNS)]
    ville = load_ville(DATA)
    rng = random.Random(0)
    # Tiles connected to the town (the map's margins are walkable but walled off).
    town = PathFinder(ville).distance_field([(78, 19)])
    walkable = [(int(x), int(y)) for y, x in zip(*(town < float("inf")).nonzero(), strict=True)]
    objects = ville.object_addresses()
    queries = [(rng.choice(walkable), rng.choice(objects)) for _ in range(2000)]
    paths = PathFinder(ville)
    cold = timed(lambda: [paths.path_to_nearest(start, ville.tiles_of(goal)) for start, goal in queries[:200]])
    warm = [timed(lambda: [paths.path_to_nearest(s, ville.tiles_of(g)) for s, g in queries]) / len(queries)]
    warm += [timed(lambda: [paths.path_to_nearest(s, ville.tiles_of(g)) for s, g in queries]) / len(queries)]
    state = WorldState(ville)
    for index, tile in enumerate(rng.sample(walkable, 25)):
        state.place_agent(f"agent {index}", tile, state.object_state(objects[0]))
    spots = rng.sample(walkable, 500)
    sight = timed(lambda: [state.visible_events(tile, 8) for tile in spots]) / len(spots)
    grid = timed(lambda: make_grid(ville, random.Random(0)))
    print(f"map load: median {statistics.median(loads) * 1000:.1f} ms over {RUNS} runs (target < 1000 ms)")
    print(f"path query, cold cache (first 200 random home->object queries): {cold / 200 * 1000:.2f} ms each")
    print(f"path query after warm-up: {statistics.median(warm) * 1000:.3f} ms each (target < 1 ms)")
    print(f"visible_events (radius 8, 25 agents placed): {sight * 1e6:.0f} us per call")
    print(f"make_grid (Mesa OrthogonalMooreGrid 140x100): {grid * 1000:.0f} ms")


if __name__ == "__main__":
    main()
