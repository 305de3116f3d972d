"""The scale series counted in instructions and cache misses instead of seconds, under valgrind's callgrind.

Wall time per agent-hour tells what a run costs on this machine; it cannot tell whether a bigger town does more work
per agent or does the same work slower because its agents no longer fit in the processor's caches. Callgrind counts
the instructions the town executes, and simulates the caches (here the 2-core machines' 48 kB L1 data cache and a
1 MB second level), the same on a loaded machine as on a quiet one.

For each size: the town built and warmed up as in bench_scale.py (tiled layout by default: every neighbourhood as
crowded as the 25-agent Ville), counted once without the measured hours and once with them; the difference over the
agent-hours is what an agent-hour costs. Prints per agent-hour: instructions, data reads, L1 and L2 data read
misses, model calls, with each size against the smallest. Slow: about 100 times the run's own time, one core per
run, two runs side by side (25 and 250 agents, one hour: 19 minutes on 2 cores).

    .venv/bin/python benchmarks/bench_scale_instructions.py [--sizes 25,250] [--layout tiled|crowded] [--hours 1]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

from bench_scale import build

from smallville.heap import settled_heap

# callgrind's cache simulation: what valgrind reads from the processor is unreliable in a virtual machine (it took a
# 384 MB last level here), so the two first levels of these machines are given: (size, ways, line).
L1_INSTRUCTIONS, L1_DATA, SECOND_LEVEL = "32768,8,64", "49152,12,64", "1048576,16,64"
EVENTS = {"Ir": "instructions", "Dr": "data reads", "D1mr": "L1 data read misses", "DLmr": "L2 data read misses"}
FIGURES = {**EVENTS, "calls": "calls"}


def count(size: int, layout: str, start: str, warmup: float, hours: float, folder: Path) -> dict:
    """Callgrind's totals for one run (0 hours: the build and warm-up alone), and the model calls it made."""
    out = folder / f"callgrind.{size}.{hours}"
    command = [
        "valgrind", "--tool=callgrind", "--cache-sim=yes", f"--I1={L1_INSTRUCTIONS}", f"--D1={L1_DATA}",
        f"--LL={SECOND_LEVEL}", f"--callgrind-out-file={out}", sys.executable, __file__, "--one", str(size),
        "--layout", layout, "--start", start, "--warmup", str(warmup), "--hours", str(hours),
    ]  # fmt: skip
    # The same string hashes in every run, so the two runs of a size differ only by the measured hours.
    done = subprocess.run(
        command, check=True, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
    )
    calls = json.loads(done.stdout.strip().splitlines()[-1])["calls"]
    lines = out.read_text().splitlines()
    header = next(line for line in lines if line.startswith("events:")).split()[1:]
    totals = next(line for line in lines if line.startswith("summary:")).split()[1:]
    return {**dict(zip(header, map(int, totals), strict=True)), "calls": calls}


def one(size: int, layout: str, start: str, warmup: float, hours: float) -> None:
    """The counted run itself (in the child valgrind starts): build, warm up, run the hours; print the calls."""
    with tempfile.TemporaryDirectory() as folder:
        model = build(size, "hashing", start, Path(folder), layout)
        with settled_heap():  # the collector as `run.py simulate` sets it
            model.run_until(model.now + timedelta(hours=warmup))
            if hours:
                model.run_until(model.now + timedelta(hours=hours))
        print(json.dumps({"calls": model.gateway.ledger.totals().calls}))
        model.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25,250")
    parser.add_argument("--layout", choices=("tiled", "crowded"), default="tiled")
    parser.add_argument("--start", default="08:00")
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.layout, args.start, args.warmup, args.hours)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench_scale_instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    sizes = [int(value) for value in args.sizes.split(",")]
    print(
        f"offline, {args.layout} layout, hashing, start {args.start}, warm-up {args.warmup:g} h, "
        f"{args.hours:g} h counted under callgrind; figures per agent-hour"
    )
    # Compile every module first: a run that writes the bytecode caches would count the compiler as town work.
    subprocess.run([sys.executable, __file__, "--one", str(sizes[0]), "--warmup", "0", "--hours", "0"], check=True,
                   capture_output=True)  # fmt: skip
    costs = {}
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(max_workers=2) as pool:
        for size in sizes:
            runs = [
                pool.submit(count, size, args.layout, args.start, args.warmup, hours, Path(folder))
                for hours in (0.0, args.hours)
            ]
            base, measured = (run.result() for run in runs)
            costs[size] = {key: (measured[key] - base[key]) / (size * args.hours) for key in FIGURES}
            figures = ", ".join(f"{costs[size][key] / 1e6:.3f} M {name}" for key, name in EVENTS.items())
            print(f"{size:4d} agents: {figures}, {costs[size]['calls']:.2f} calls", flush=True)
    smallest = min(costs)
    for size in sorted(costs)[1:]:
        ratios = ", ".join(f"{name} {costs[size][key] / costs[smallest][key]:.2f}x" for key, name in FIGURES.items())
        print(f"per agent-hour at {size} against {smallest}: {ratios}")


if __name__ == "__main__":
    main()
