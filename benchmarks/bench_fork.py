"""The cost of a fork with a cached past: model calls and wall time of forks of a real-model run (litellm's path).

A town runs through litellm against the loopback model server (with --latency per call, as a hosted model answers)
with a response cache and kept checkpoints; then it is forked at a moment with no change (it must make no call: the
shared past and the unchanged future come from the cache) and with a whisper (calls only for what the whisper
changes; each repeat answers from its own copy of the source's cache, so it pays those calls again). Prints the
source's calls and wall time, then the forks' (medians of --repeats), with the load average.
Run: .venv/bin/python benchmarks/bench_fork.py [--agents 25] [--until 2023-02-13T12:00] [--at 2023-02-13T08:30]
"""

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from smallville.cli import main as cli
from testing import LoopbackServer


def totals(run: Path) -> tuple[int, int]:
    """(model calls, tokens) of a run, from its ledger."""
    ledger = json.loads((run / "ledger.json").read_text())["totals"]
    return ledger["calls"], ledger["prompt_tokens"] + ledger["completion_tokens"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", default="25")
    parser.add_argument("--until", default="2023-02-13T12:00")
    parser.add_argument("--at", default="2023-02-13T08:30")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds the loopback model takes per call")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-loopback")
    with tempfile.TemporaryDirectory() as folder, LoopbackServer(latency=args.latency) as server:
        root = Path(folder)
        common = ["--agents", args.agents, "--embedder", "hashing", "--llm", "openai/loopback", "--api-base",
                  server.url, "--cache", str(root / "cache.sqlite")]  # fmt: skip
        started = time.perf_counter()
        source = root / "source"
        assert cli(["simulate", *common, "--until", args.until, "--keep-checkpoints", "every 1h",
                    "--out", str(source)]) == 0  # fmt: skip
        wall = time.perf_counter() - started
        requests = server.stats.requests
        print(f"source: {args.agents} agents to {args.until}: {requests} model calls, {wall:.1f} s "
              f"(loopback latency {args.latency} s a call)")  # fmt: skip
        for label, change in (
            ("no change", []),
            ("a whisper", ["--whisper", "Isabella Rodriguez", "The town library will close early this Friday"]),
        ):
            walls, calls = [], []
            for repeat in range(args.repeats):
                before = server.stats.requests
                started = time.perf_counter()
                out = root / f"fork-{len(change)}-{repeat}"
                own_cache = []
                if change:  # a cache of its own, as the source left it: the change's calls are paid each time
                    shutil.copyfile(root / "cache.sqlite", root / f"cache-{repeat}.sqlite")
                    own_cache = ["--cache", str(root / f"cache-{repeat}.sqlite")]
                    before = server.stats.requests
                    started = time.perf_counter()
                assert cli(["fork", str(source), "--at", args.at, "--out", str(out), *change, *own_cache]) == 0
                walls.append(time.perf_counter() - started)
                calls.append(server.stats.requests - before)
            print(
                f"fork at {args.at} with {label}: {statistics.median(calls):.0f} model calls (median of "
                f"{args.repeats}: {calls}), {statistics.median(walls):.1f} s wall "
                f"({', '.join(f'{w:.1f}' for w in walls)})"
            )
        print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
