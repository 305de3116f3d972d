"""Start-up: imports, `run.py --help`, and the start of a run to its first step, each in a fresh process.

Prints the median wall time of several runs (and the CPU time of the process, less noisy on a shared machine) with
the load average beside it. `--tree PATH` measures another checkout (e.g. an older commit in a git worktree) with this
interpreter, for before/after figures. Targets (DESIGN.md): `run.py --help` under 1 s; start of `simulate` to the
first step under 5 s for 25 agents with hashing.

    .venv/bin/python benchmarks/bench_startup.py [--runs 5] [--tree ../other-checkout]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_STEP = (
    "from smallville.model import SmallvilleModel; "
    "m = SmallvilleModel(scenario_name='{scenario}', embedder='hashing'); m.step(); m.close()"
)
CASES = {
    "import agents": "import agents",
    "from agents import GenerativeAgent": "from agents import GenerativeAgent",
    "run.py --help": None,
    "first step, 3 agents (hashing)": FIRST_STEP.format(scenario="the_ville_n3"),
    "first step, 25 agents (hashing)": FIRST_STEP.format(scenario="the_ville_n25"),
}


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(cwd)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    tree = args.tree.resolve()
    print(f"tree: {tree}   load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, code in CASES.items():
        command = [sys.executable, "run.py", "--help"] if code is None else [sys.executable, "-c", code]
        runs = [timed(command, tree) for _ in range(args.runs)]
        walls, cpus = zip(*runs, strict=True)
        print(
            f"{name:36s} wall median {statistics.median(walls):6.2f} s (min {min(walls):5.2f})   "
            f"cpu median {statistics.median(cpus):6.2f} s   load {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
