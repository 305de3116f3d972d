"""Environment benchmarks: map load, path queries, sight, the Mesa grid; each figure the median of a few runs.

Targets (issue 3 and DESIGN.md, on 2 cores): map load < 1 s; a path query < 1 ms on average after warm-up
(random homes -> random objects). Run with `.venv/bin/python benchmarks/bench_environment.py`.
"""

import functools
import json
import random
from pathlib import Path

import timing

from environment import Event, PathFinder, WorldState, load_ville, make_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "the_ville"
PERSONAS = DATA / "base_the_ville_n25" / "personas"
RUNS = 5  # repetitions per figure; the median is printed
median_seconds = functools.partial(timing.median_seconds, runs=RUNS)
QUERIES = 2000  # path queries per run
AGENTS = 25  # agents placed for the sight benchmark, as in the 25-agent town
VISION_RADIUS = 8  # the original's vision_r


def home_tiles(ville) -> list[tuple[int, int]]:
    """The spawning tiles of every persona's living area: where agents start their walks."""
    homes = []
    for folder in sorted(PERSONAS.iterdir()):
        scratch = json.loads((folder / "bootstrap_memory" / "scratch.json").read_text())
        homes += ville.spawn_tiles(scratch["living_area"])
    return homes


def main() -> None:
    """Measure and print every figure."""
    load = median_seconds(lambda: load_ville(DATA))
    ville = load_ville(DATA)
    rng = random.Random(0)
    homes, objects = home_tiles(ville), ville.object_addresses()
    queries = [(rng.choice(homes), ville.tiles_of(rng.choice(objects))) for _ in range(QUERIES)]

    def run_queries(finder: PathFinder, batch) -> None:
        for start, goals in batch:
            finder.path_to_nearest(start, goals)

    cold = median_seconds(lambda: run_queries(PathFinder(ville), queries[:100])) / 100
    finder = PathFinder(ville)
    run_queries(finder, queries)
    warm = median_seconds(lambda: run_queries(finder, queries)) / QUERIES
    build = median_seconds(lambda: PathFinder(ville))

    town = finder.distance_field(homes[:1])  # tiles joined to the town (the map's margins are walled off)
    walkable = [(x, y) for y in range(ville.height) for x in range(ville.width) if town[y, x] < float("inf")]
    state = WorldState(ville)
    tiles = rng.sample(walkable, AGENTS)
    for index, tile in enumerate(tiles):
        state.place_agent(f"agent {index}", tile, Event(f"agent {index}", "is", "", "walking"))
    sight = median_seconds(lambda: [state.visible_events(tile, VISION_RADIUS) for tile in tiles * 20])
    sight /= AGENTS * 20
    first_looks = rng.sample(walkable, 500)

    def look_once_from_each(fresh: WorldState) -> None:
        for tile in first_looks:
            fresh.visible_events(tile, VISION_RADIUS)

    first = median_seconds(lambda: look_once_from_each(WorldState(ville))) / len(first_looks)
    cafe = (78, 19)
    sight_cafe = median_seconds(lambda: [state.visible_events(cafe, VISION_RADIUS) for _ in range(500)]) / 500
    grid = median_seconds(lambda: make_grid(ville, random.Random(0)), runs=3)

    print(f"map load: {load * 1000:.1f} ms (median of {RUNS}; target < 1000 ms)")
    print(f"PathFinder build (walkable graph): {build * 1000:.1f} ms")
    print(f"path query, cold cache (homes -> objects, a BFS field per new object): {cold * 1000:.2f} ms each")
    print(f"path query after warm-up ({QUERIES} homes -> objects): {warm * 1000:.3f} ms each (target < 1 ms)")
    print(f"visible_events (radius {VISION_RADIUS}, {AGENTS} agents, from their tiles): {sight * 1e6:.0f} us per call")
    print(f"visible_events, first look from a tile (objects in sight computed): {first * 1e6:.0f} us per call")
    print(f"visible_events at the cafe counter: {sight_cafe * 1e6:.0f} us per call")
    print(f"make_grid (Mesa OrthogonalMooreGrid 140 x 100): {grid * 1000:.0f} ms (median of 3)")


if __name__ == "__main__":
    main()
