"""The scale series: cost per agent-hour at 25, 100 and 250 agents, offline, over one or more simulated hours.

Three layouts: `crowded` (the default, as the issue asks) puts every size on one Ville (the_ville_n<size>), so a
bigger town crowds the same cafe and each agent meets more people and makes more calls; `tiled` lays the map once
per 25 people, each copy of the 25 on its own copy (smallville/scenarios/derived_town.py `write_tiled_town`), so every
neighbourhood is as crowded as the original and what grows is the engine's own cost; `generated` builds a town of
each size with `town new` (seed 0: homes, cafes, shops, a college, parks and bars in proportion to its people;
smallville/scenarios/generated_town.py), the 1,000-person town of DESIGN.md's flat cost per agent-hour; with
--base-ville every size is also compared with the Ville's 25 (the_ville_n25).

Each run is a fresh process (so its peak memory is its own): it builds the town with the start moved to --start
(a copy of the scenario in a temporary folder: agents wake and plan at once), runs --warmup hours untimed for the
figures, then measures the next --hours simulated hours (one by default; a reflection comes a few times a day, so
one hour may hold none for a small town and several for a crowded one). Prints per size the median wall of the
runs, wall per agent-hour (and its split: the minds' time on the model's event loop, thinking, retrieving and
embedding, and the engine's, the rest of each step; and the process's CPU time, steadier than wall on a shared
machine), model calls and tokens per agent-hour, peak RSS, the load
average beside each run, the calls and tokens of the 25 original people among them (in the tiled layout the same as
in the 25-agent town if the engine keeps the copies apart; the other copies are other people), then each size's
cost per agent-hour against 25's and against the size before (1.0 is flat: the target in DESIGN.md), with the wall
per model call beside them (the engine's share, whatever the crowding does to the calls). `--profile SIZE` runs one
size under cProfile instead and prints the functions that took the most time in the measured hours. `--counts`
adds, per agent-hour, what may grow with the town by its design: trips and their length in tiles, looks and the
people each sees, retrievals and the memories each scores, and the cyclic collector's time.

    .venv/bin/python benchmarks/bench_scale.py [hashing|minilm] [--layout crowded|tiled] [--sizes 25,100,250]
        [--repeats 3] [--start 08:00] [--warmup 1] [--hours 1] [--thinking-steps N]
        [--profile 250 [--profile-out FILE]] [--counts]
    .venv/bin/python benchmarks/bench_scale.py --layout generated --sizes 25,1000 --repeats 1 --base-ville

From a second checkout (a git worktree sharing the main one's .venv), put it first: `PYTHONPATH=. .venv/bin/python
benchmarks/...`; run as a script, a benchmark otherwise imports the checkout the environment was installed from.

Each size also prints how it starts: the town's files written (generated: `town new`'s time, apart), the model
built, its first step; and between sizes, the peak memory each added agent costs.
"""

import argparse
import cProfile
import gc
import itertools
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from timing import time_calls

from smallville.heap import settled_heap
from smallville.model import SmallvilleModel
from smallville.scenarios.derived_town import write_tiled_town
from smallville.scenarios.generated_town import TownPlan, new_town
from smallville.scenarios.scenario import load_scenario, scenario_file

BASE_SIZE = 25  # the original town: a tiled town of n people lays the map n / 25 times (rounded up)


def town_source(size: int, layout: str, folder: Path) -> Path:
    """The scenario file of the town of `size` in this layout (written under `folder` unless shipped)."""
    if layout == "tiled" and size > BASE_SIZE:
        return write_tiled_town(size, folder)
    if layout == "generated":
        return new_town(TownPlan(people=size, seed=0), folder / f"generated_n{size}")
    return scenario_file(f"the_ville_n{size}")


def build(source: Path, embedder: str, start: str, folder: Path, thinking_steps: int | None = None) -> SmallvilleModel:
    """The town of the scenario `source` starting at `start` on its first day; `thinking_steps` None keeps the
    model's default."""
    scenario = json.loads(source.read_text())
    first_day = datetime.fromisoformat(scenario["start"])
    scenario["start"] = datetime.combine(first_day.date(), datetime.strptime(start, "%H:%M").time()).isoformat()
    beside = scenario["map"].startswith(".")  # a town folder names its files by "./" paths: stay beside them
    path = (source.parent if beside else folder) / f"{scenario['name']}_from_{start.replace(':', '')}.json"
    path.write_text(json.dumps(scenario))
    thinking = {} if thinking_steps is None else {"thinking_steps": thinking_steps}
    return SmallvilleModel(scenario_name=str(path), embedder=embedder, rng=0, **thinking)


def one_run(
    size: int,
    embedder: str,
    start: str,
    warmup: float,
    hours: float = 1.0,
    profile: str = "",
    layout: str = "crowded",
    thinking_steps: int | None = None,
    counts: bool = False,
) -> dict:
    """Build, warm up, then measure `hours` simulated hours; their figures per hour (and `Counts` if `counts`)."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        source = town_source(size, layout, Path(folder))
        written = time.perf_counter() - started
        started, cpu_started = time.perf_counter(), time.process_time()
        model = build(source, embedder, start, Path(folder), thinking_steps)
        counter = Counts() if counts else None
        if counter:
            counter.install(model)
        built, built_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        with settled_heap():  # the collector as `run.py simulate` sets it, for the warm-up and the measured hours
            model.run_until(model.now + timedelta(seconds=model.seconds_per_step))
            first_step = time.perf_counter() - started - built
            first_step_cpu = time.process_time() - cpu_started - built_cpu
            model.run_until(model.now + timedelta(hours=warmup, seconds=-model.seconds_per_step))
            warm = time.perf_counter() - started - built
            before = model.gateway.ledger.totals()
            calls, tokens = before.calls, before.tokens  # read now: the ledger updates its totals in place
            kinds = {kind: totals.calls for kind, totals in model.gateway.ledger.by_kind().items()}
            names = {person.name for person in load_scenario(scenario_file("the_ville_n25")).agents}
            originals = _totals_of(model, names)
            profiler = cProfile.Profile() if profile else None
            # The minds: what runs on the event loop (thoughts, retrievals, embeddings); the rest is the engine's.
            thinking = time_calls(model, "run_async")
            hour_started, hour_cpu_started = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            if counter:
                counter.on, nodes = True, sum(len(agent.memories.stream) for agent in model.people) / size
            model.run_until(model.now + timedelta(hours=hours))
            if counter:
                counter.on = False
            if profiler:
                profiler.disable()
        wall, cpu = time.perf_counter() - hour_started, time.process_time() - hour_cpu_started
        minds = thinking[0]
        after = model.gateway.ledger.totals()
        by_kind = {
            kind: (totals.calls - kinds.get(kind, 0)) / hours for kind, totals in model.gateway.ledger.by_kind().items()
        }
        originals = [
            (now - then) / (BASE_SIZE * hours) for now, then in zip(_totals_of(model, names), originals, strict=True)
        ]
        if counter:
            memories = {
                "memories_before": nodes,
                "memories_after": sum(len(a.memories.stream) for a in model.people) / size,
            }
        model.close()
    if profiler:
        stats = pstats.Stats(profiler)
        if profile != "-":
            stats.dump_stats(profile)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
    return {"size": size, "written": written, "build": built, "first_step": first_step, "warmup": warm,
           "build_cpu": built_cpu, "first_step_cpu": first_step_cpu,
            "wall": wall / hours, "cpu": cpu / hours, "minds": minds / hours,
            "engine": (wall - minds) / hours, "calls": (after.calls - calls) / hours,
            "tokens": (after.tokens - tokens) / hours,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "load": os.getloadavg()[0],
            "by_kind": by_kind, "originals": originals,
            "counts": counter.per_agent_hour(size, hours) | memories if counter else {}}  # fmt: skip


class Counts:
    """What each agent does in the measured hours that may grow with the town (`--counts`): trips and their tiles,
    looks and the people in them, memories retrieved over, and the cyclic collector's time.

    Counted by wrapping the path finder, the world's look and the memory stream's retrieval for the measured hours
    only (a few microseconds a call: the run's wall is not a clean figure with it).
    """

    def __init__(self) -> None:
        self.on = False
        self.totals: dict[str, float] = dict.fromkeys(
            ("trips", "trip_tiles", "looks", "people_seen", "retrievals", "nodes_scored", "gc_s", "collections"), 0
        )
        self._gc_started = 0.0

    def install(self, model: SmallvilleModel) -> None:
        """Wrap the model's path finder and world state, and every memory stream's retrieval."""
        from memory import MemoryStream

        paths, state, counts = model.paths, model.state, self
        path_to_nearest, look = paths.path_to_nearest, state._look
        retrieve_many = MemoryStream.retrieve_many

        def counted_path(start, goals):
            path = path_to_nearest(start, goals)
            counts.add(trips=1, trip_tiles=len(path))
            return path

        def counted_look(x, y, radius, same_arena):
            seen = look(x, y, radius, same_arena)
            counts.add(looks=1, people_seen=sum(":" not in item.event.subject for item in seen))
            return seen

        def counted_retrieval(stream, queries, **options):
            counts.add(retrievals=len(queries), nodes_scored=len(queries) * len(stream))
            return retrieve_many(stream, queries, **options)

        paths.path_to_nearest, state._look = counted_path, counted_look
        MemoryStream.retrieve_many = counted_retrieval
        gc.callbacks.append(self._collector)

    def add(self, **amounts: float) -> None:
        if self.on:
            for key, amount in amounts.items():
                self.totals[key] += amount

    def _collector(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.add(gc_s=time.perf_counter() - self._gc_started, collections=1)

    def per_agent_hour(self, size: int, hours: float) -> dict[str, float]:
        return {key: value / (size * hours) for key, value in self.totals.items()}


def _totals_of(model: SmallvilleModel, names: set[str]) -> tuple[int, int]:
    """The model calls and tokens so far of these people (the 25 originals, who live in every town of the series)."""
    agents = [totals for name, totals in model.gateway.ledger.by_agent().items() if name in names]
    return sum(totals.calls for totals in agents), sum(totals.tokens for totals in agents)


def in_fresh_process(size: int, args: argparse.Namespace, layout: str = "") -> dict:
    """One run in a child process (its own peak memory, no caches from the last run)."""
    command = [sys.executable, __file__, args.embedder, "--one", str(size), "--start", args.start]
    command += ["--warmup", str(args.warmup), "--hours", str(args.hours), "--layout", layout or args.layout]
    if args.thinking_steps is not None:
        command += ["--thinking-steps", str(args.thinking_steps)]
    if args.counts:
        command.append("--counts")
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(size: int, runs: list[dict]) -> dict:
    """Print one size's line; its medians per agent-hour."""
    wall = statistics.median(run["wall"] for run in runs)
    per_agent = {
        "wall": wall / size,
        "cpu": statistics.median(run["cpu"] for run in runs) / size,
        "engine": statistics.median(run["engine"] for run in runs) / size,
        "minds": statistics.median(run["minds"] for run in runs) / size,
        "calls": statistics.median(run["calls"] for run in runs) / size,
        "tokens": statistics.median(run["tokens"] for run in runs) / size,
    }
    print(
        f"{size:4d} agents: an hour {wall:6.1f} s median ({', '.join(f'{run["wall"]:.1f}' for run in runs)}), "
        f"{1000 * per_agent['wall']:6.1f} ms wall/agent-hour (engine {1000 * per_agent['engine']:.1f}, minds "
        f"{1000 * per_agent['minds']:.1f}; CPU {1000 * per_agent['cpu']:.1f}), "
        f"{per_agent['calls']:5.2f} calls/agent-hour, "
        f"{per_agent['tokens']:6.0f} tokens/agent-hour, peak RSS {max(run['rss_mb'] for run in runs):5.0f} MB, "
        f"files {statistics.median(run['written'] for run in runs):.1f} s, build "
        f"{statistics.median(run['build'] for run in runs):.1f} s, first step "
        f"{statistics.median(run['first_step'] for run in runs):.2f} s (CPU: build "
        f"{statistics.median(run['build_cpu'] for run in runs):.1f} s, first step "
        f"{statistics.median(run['first_step_cpu'] for run in runs):.2f} s), warm-up "
        f"{statistics.median(run['warmup'] for run in runs):.1f} s   "
        f"load {', '.join(f'{run["load"]:.2f}' for run in runs)}"
    )
    kinds = sorted({kind for run in runs for kind in run["by_kind"]})
    shares = {kind: statistics.median(run["by_kind"].get(kind, 0) for run in runs) / size for kind in kinds}
    print(
        "      calls/agent-hour by kind: " + ", ".join(f"{kind} {share:.2f}" for kind, share in shares.items() if share)
    )
    calls, tokens = (statistics.median(run["originals"][index] for run in runs) for index in (0, 1))
    print(f"      the 25 originals among them: {calls:.2f} calls/agent-hour, {tokens:.0f} tokens/agent-hour")
    if runs[0]["counts"]:
        counted = {key: statistics.median(run["counts"][key] for run in runs) for key in runs[0]["counts"]}
        tiles = counted["trip_tiles"] / max(counted["trips"], 1e-9)
        people = counted["people_seen"] / max(counted["looks"], 1e-9)
        scored = counted["nodes_scored"] / max(counted["retrievals"], 1e-9)
        print(
            f"      per agent-hour: {counted['trips']:.2f} trips of {tiles:.1f} tiles, {counted['looks']:.1f} looks "
            f"seeing {people:.2f} people each, {counted['retrievals']:.1f} retrievals over {scored:.0f} memories each "
            f"(memories per agent {counted['memories_before']:.0f} -> {counted['memories_after']:.0f}), collector "
            f"{1000 * counted['gc_s']:.2f} ms in {counted['collections'] * size:.0f} collections"
        )
    rss = max(run["rss_mb"] for run in runs)
    return per_agent | {"originals' calls": calls, "originals' tokens": tokens, "rss_mb": rss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("embedder", nargs="?", default="hashing", help="hashing (default) or minilm")
    parser.add_argument("--sizes", default="25,100,250")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each size (the figures are their medians)")
    parser.add_argument(
        "--layout",
        choices=("crowded", "tiled", "generated"),
        default="crowded",
        help="crowded: every size on one Ville (the_ville_n<size>); tiled: the map laid once per 25 people, each copy "
        "of the 25 on its own copy (the engine's growth without the crowding); generated: `town new` of each size",
    )
    parser.add_argument("--base-ville", action="store_true", help="also run the Ville's 25 and compare with it")
    parser.add_argument("--start", default="08:00", help="the first day's hour the town starts at (HH:MM)")
    parser.add_argument("--warmup", type=float, default=1.0, help="simulated hours run before the measured ones")
    parser.add_argument("--hours", type=float, default=1.0, help="simulated hours measured (figures are per hour)")
    parser.add_argument(
        "--thinking-steps",
        type=int,
        help="the town's --thinking-steps (the model's default unless given; 0: lock-step)",
    )
    parser.add_argument("--profile", type=int, help="run this size once under cProfile and print the hot spots")
    parser.add_argument("--profile-out", default="-", help="also save the profile's statistics in this file")
    parser.add_argument(
        "--counts",
        action="store_true",
        help="also count per agent-hour what may grow with the town: trips and their tiles, looks and the people in "
        "them, memories retrieved over, the collector's time (wrappers: the wall is then not a clean figure)",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child process's single run
    args = parser.parse_args()
    if args.one:
        run = one_run(
            args.one,
            args.embedder,
            args.start,
            args.warmup,
            args.hours,
            "",
            args.layout,
            args.thinking_steps,
            args.counts,
        )
        print(json.dumps(run))
        return
    if args.profile:
        print(
            one_run(
                args.profile,
                args.embedder,
                args.start,
                args.warmup,
                args.hours,
                args.profile_out,
                args.layout,
                args.thinking_steps,
            )
        )
        return
    print(
        f"offline, {args.layout} layout, embedder {args.embedder}, thinking steps "
        f"{'default' if args.thinking_steps is None else args.thinking_steps}, start {args.start}, "
        f"warm-up {args.warmup:g} h, "
        f"then {args.hours:g} simulated hour(s) measured, figures per hour; {args.repeats} runs per size   "
        f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    costs = {}
    if args.base_ville:
        print("the Ville's 25 (the_ville_n25), the reference:")
        ville = report(BASE_SIZE, [in_fresh_process(BASE_SIZE, args, "crowded") for _ in range(args.repeats)])
    for size in (int(value) for value in args.sizes.split(",")):
        costs[size] = report(size, [in_fresh_process(size, args) for _ in range(args.repeats)])
    base = min(costs)
    sizes = sorted(costs)
    measures = ("wall", "cpu", "engine", "minds", "calls", "tokens")
    if args.base_ville:
        for size in sizes:
            ratios = ", ".join(f"{name} {_ratio(costs[size][name], ville[name])}" for name in measures)
            print(f"per agent-hour at {size} (generated) against the Ville's 25: {ratios}")
    for before, size in itertools.pairwise(sizes):  # against the smallest, and against the size before
        added = (costs[size]["rss_mb"] - costs[before]["rss_mb"]) / (size - before)
        print(f"peak memory from {before} to {size} agents: {1000 * added:.0f} kB per added agent")
        for other in dict.fromkeys((base, before)):
            ratios = ", ".join(f"{name} {_ratio(costs[size][name], costs[other][name])}" for name in measures)
            per_call = _ratio(
                costs[size]["wall"] / max(costs[size]["calls"], 1e-9),
                costs[other]["wall"] / max(costs[other]["calls"], 1e-9),
            )
            print(
                f"per agent-hour at {size} against {other}: {ratios} (wall per call {per_call})   "
                f"load {os.getloadavg()[0]:.2f}"
            )


def _ratio(value: float, reference: float) -> str:
    """value / reference as "1.23x", "n/a" when the reference is 0 (no call in a very short measured span)."""
    return f"{value / reference:.2f}x" if reference else "n/a"


if __name__ == "__main__":
    main()
