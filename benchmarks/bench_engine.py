"""The town against a model with latency: lock-step against thinking windows, through litellm and a loopback server.

Prints, for each mode, the wall time, model calls, the most calls in flight, the rounds the engine waited for
answers, the ideal bound max(busiest agent's calls, calls / cap) x latency and the ratio to it, with the load
average. The loopback server answers every request type validly (agents/language/loopback_answers.py), so the call
pattern is the loopback's (fewer calls than the offline mind's).

    .venv/bin/python benchmarks/bench_engine.py [--agents 25] [--until 2023-02-14T00:00] [--latency 0.3] [--windows 1,6]
"""

import argparse
import os
import time
from datetime import datetime

from agents.language.loopback_server import LoopbackServer
from smallville.model import SmallvilleModel


def run(agents: int, until: datetime, latency: float, window: int) -> dict:
    """One run; its figures."""
    os.environ.setdefault("OPENAI_API_KEY", "sk-loopback")
    with LoopbackServer(latency=latency, lifetime_s=3600) as server:
        model = SmallvilleModel(
            agents=agents, embedder="hashing", llm="openai/loopback", api_base=server.url, thinking_window_steps=window
        )
        rounds = 0
        answer = model._answer_thoughts

        def counted(view):
            nonlocal rounds
            rounds += bool(model._thoughts)
            answer(view)

        model._answer_thoughts = counted
        started = time.perf_counter()
        model.run_until(until)
        wall = time.perf_counter() - started
        model.close()
    totals = model.gateway.ledger.totals()
    busiest = max(item.calls for item in model.gateway.ledger.by_agent().values())
    ideal = max(busiest, totals.calls / model.gateway.config.max_in_flight) * latency
    return {"wall": wall, "calls": totals.calls, "in_flight": server.stats.max_in_flight, "rounds": rounds,
            "busiest": busiest, "ideal": ideal, "events": len(model.event_log)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=25)
    parser.add_argument("--until", default="2023-02-14T00:00")
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--windows", default="1,6", help="thinking windows to compare (1 = lock-step)")
    args = parser.parse_args()
    until = datetime.fromisoformat(args.until)
    print(f"{args.agents} agents to {until:%Y-%m-%d %H:%M}, {args.latency * 1000:.0f} ms a call, loopback")
    for window in (int(w) for w in args.windows.split(",")):
        figures = run(args.agents, until, args.latency, window)
        print(
            f"window {window} step(s): wall {figures['wall']:.1f} s, {figures['calls']} calls, "
            f"most in flight {figures['in_flight']}, {figures['rounds']} rounds waited, busiest agent "
            f"{figures['busiest']} calls, ideal {figures['ideal']:.1f} s, "
            f"ratio {figures['wall'] / figures['ideal']:.1f}x, "
            f"{figures['events']} events   load {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
