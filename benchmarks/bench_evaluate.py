"""`evaluate` on one 25-agent two-day run with the full battery: calls, tokens (beside the run's), wall time, printed.

Simulates the run first (offline, hashing embedder) unless a run folder is given; then evaluates it from scratch
(a fresh evaluation/ folder each time), offline by default or against the loopback server with a latency.
Run: .venv/bin/python benchmarks/bench_evaluate.py [RUN] [--days 2] [--loopback-latency 0.3]
"""

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from smallville.cli import main as cli
from smallville.evaluation import evaluate_run


def simulate(folder: Path, days: float) -> float:
    started = time.perf_counter()
    until = f"2023-02-{13 + int(days):02d}T00:00" if days == int(days) else None
    argv = ["simulate", "--scenario", "the_ville_n25", "--embedder", "hashing", "--out", str(folder)]
    assert cli([*argv, *(["--until", until] if until else ["--days", str(days)])]) == 0
    return time.perf_counter() - started


def evaluate(run: Path, latency: float | None) -> tuple[float, dict]:
    shutil.rmtree(run / "evaluation", ignore_errors=True)
    started = time.perf_counter()
    if latency is None:
        evaluate_run(run)
    else:
        from testing import LoopbackServer

        os.environ.setdefault("OPENAI_API_KEY", "sk-bench-loopback")
        with LoopbackServer(latency=latency) as server:
            evaluate_run(run, llm="openai/loopback", judge="openai/loopback", api_base=server.url)
    wall = time.perf_counter() - started
    return wall, json.loads((run / "evaluation" / "ledger.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", nargs="?", help="an existing run folder (default: simulate one)")
    parser.add_argument("--days", type=float, default=2.0)
    parser.add_argument("--loopback-latency", type=float, default=None, help="seconds; default: offline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        run = Path(args.run) if args.run else Path(scratch) / "run"
        if not args.run:
            print(f"simulated 25 agents for {args.days:g} days in {simulate(run, args.days):.0f} s")
        wall, ledger = evaluate(run, args.loopback_latency)
        load = os.getloadavg()[0]
        mode = "offline" if args.loopback_latency is None else f"loopback, {args.loopback_latency} s latency"
        print(f"evaluate ({mode}): {wall:.1f} s wall, load average {load:.2f}")
        print(f"model calls {ledger['calls']}, tokens {ledger['tokens']}, cache hits {ledger['cache_hits']}, "
              f"identical requests answered once {ledger.get('reused', 0)}")  # fmt: skip
        if ledger.get("run_tokens"):
            print(f"evaluation tokens {ledger['tokens']} vs the run's {ledger['run_tokens']}: "
                  f"{ledger['tokens'] / ledger['run_tokens']:.2f}x (target: at most 1x)")  # fmt: skip
        tokens = ledger.get("tokens_by_kind", {})
        for kind, requests in sorted(ledger["requests_by_kind"].items()):
            print(f"  {kind:12s} {requests:6d} requests {tokens.get(kind, 0):10d} tokens")
        print((run / "evaluation" / "summary.md").read_text())


if __name__ == "__main__":
    main()
