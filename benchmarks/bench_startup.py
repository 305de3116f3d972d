"""Start-up: imports, `run.py --help`, and the start of a run to its first step, each in a fresh process.

Prints the median wall time of several runs (and the CPU time of the process, less noisy on a shared machine) with
the load average beside it. `--tree PATH` measures another checkout (e.g. an older commit in a git worktree) with this
interpreter, for before/after figures. Targets (DESIGN.md): `run.py --help` under 1 s; start of `simulate` to the
first step under 5 s for 25 agents with hashing; under 10 s for a generated town of 1,000 people (issue 53).

`--people N` adds a generated town of N people (`town new --people N --seed 0`, written once, untimed), started at
08:00 as bench_scale.py starts it (everyone wakes and plans in the first step): the process's CPU, and the CPU of its
build and first step alone (the model built, then one step in `settled_heap`, as `simulate` runs it).

    .venv/bin/python benchmarks/bench_startup.py [--runs 5] [--tree ../other-checkout] [--people 1000]
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_STEP = (
    "from smallville.model import SmallvilleModel; "
    "m = SmallvilleModel(scenario_name='{scenario}', embedder='hashing'); m.step(); m.close()"
)
# A town's start to its first step, its own CPU printed last: the build, then the first step as `simulate` runs it.
TOWN_FIRST_STEP = """
import json, time
from smallville.heap import settled_heap
from smallville.model import SmallvilleModel
started = time.process_time()
model = SmallvilleModel(scenario_name="{scenario}", embedder="hashing")
built = time.process_time()
with settled_heap():
    model.step()
print(json.dumps({{"build": built - started, "first_step": time.process_time() - built}}))
"""
CASES = {
    "import agents": "import agents",
    "from agents import GenerativeAgent": "from agents import GenerativeAgent",
    "run.py --help": None,
    "first step, 3 agents (hashing)": FIRST_STEP.format(scenario="the_ville_n3"),
    "first step, 25 agents (hashing)": FIRST_STEP.format(scenario="the_ville_n25"),
}


def timed(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=cwd, check=True, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(cwd)}
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def generated_town(people: int, folder: Path) -> Path:
    """`town new --people N --seed 0` in `folder`, its scenario moved to start at 08:00 (bench_scale.py's start)."""
    subprocess.run(
        [sys.executable, "run.py", "town", "new", "--people", str(people), "--seed", "0", "--out", str(folder)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    scenario = json.loads((folder / "scenario.json").read_text())
    scenario["start"] = scenario["start"][:10] + "T08:00:00"
    moved = folder / "scenario_0800.json"
    moved.write_text(json.dumps(scenario))
    return moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--people", type=int, help="also a generated town of this many people, from 08:00")
    parser.add_argument("--only-town", action="store_true", help="with --people: that town only")
    args = parser.parse_args()
    tree = args.tree.resolve()
    print(f"tree: {tree}   load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        cases = {} if args.only_town and args.people else dict(CASES)
        if args.people:
            scenario = generated_town(args.people, Path(folder) / "town")
            cases[f"first step, {args.people:,} people (generated)"] = TOWN_FIRST_STEP.format(scenario=scenario)
        for name, code in cases.items():
            command = [sys.executable, "run.py", "--help"] if code is None else [sys.executable, "-c", code]
            runs = [timed(command, tree) for _ in range(args.runs)]
            walls, cpus, printed = zip(*runs, strict=True)
            own = [json.loads(out.strip().splitlines()[-1]) for out in printed if out.strip().startswith("{")]
            start = (
                "   build + first step CPU "
                + ", ".join(f"{run['build']:.2f} + {run['first_step']:.2f}" for run in own)
                + f" (median {statistics.median(run['build'] + run['first_step'] for run in own):.2f} s)"
                if own
                else ""
            )
            print(
                f"{name:36s} wall median {statistics.median(walls):6.2f} s (min {min(walls):5.2f})   "
                f"cpu median {statistics.median(cpus):6.2f} s   load {os.getloadavg()[0]:.2f}{start}"
            )


if __name__ == "__main__":
    main()
