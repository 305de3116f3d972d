"""The town against a model with latency: lock-step against thinking that overlaps time, through litellm and a
loopback server.

Prints, for each number of thinking steps (0 = the paper's lock-step), the median wall time of the runs, model calls,
the most calls in flight, the steps that waited for answers, the ideal bound max(busiest agent's calls, calls / cap)
x latency and the ratio to it, with the load average; then what the choice changes in the town (talks, density,
awareness of each tracked fact).

With the offline mind and the hashing embedder it also prints the schedule's own bound: the wall time the run's
thoughts force on any engine that keeps this rule (a thought started at step s takes effect at the end of step
s + N), with the engine's own work taken as nothing and no cap on calls in flight. Each thought counts its rounds of
calls (a call made while none of its other calls is in flight starts a round; each round takes the latency), and the
end of step t can come no sooner than the end of step t - 1, nor sooner than the start of each thought due at t plus
its rounds x latency. The wall's ratio to it is what the engine loses; its ratio to the ideal bound is what the rule
costs.

Two minds: `loopback` goes through litellm to a loopback server that answers every request type validly
(agents/language/loopback_answers.py) with the given latency; its call pattern is the loopback's (~17 calls per
agent-day). `offline` is the offline mind with the latency added under the gateway's in-flight cap: a real model's
call pattern (~100 calls per agent-day) without litellm.

Two embedders: `hashing` (local, instant) or `loopback`, an embedding API through litellm: the loopback server's
/v1/embeddings with the same latency, so storing and retrieving memories wait as they would for a hosted embedder.

    .venv/bin/python benchmarks/bench_engine.py [--mind loopback|offline] [--embedder hashing|loopback] [--agents 25]
        [--until 2023-02-14T00:00] [--latency 0.3] [--thinking-steps 0,1,2,3] [--repeats 3]
"""

import argparse
import asyncio
import contextvars
import os
import statistics
import time
from datetime import datetime

from agents.embedder_choice import forget_embedders
from agents.language.loopback_server import LoopbackServer
from smallville.model import SmallvilleModel

# The thought whose task makes a call (a task copies the context it was created in, so the thought's calls see it).
_THOUGHT: contextvars.ContextVar[dict | None] = contextvars.ContextVar("thought", default=None)


def run(mind: str, embedder: str, agents: int, until: datetime, latency: float, thinking_steps: int) -> dict:
    """One run; its figures."""
    os.environ.setdefault("OPENAI_API_KEY", "sk-loopback")
    forget_embedders()  # each run starts cold, as a new process would
    with LoopbackServer(latency=latency, lifetime_s=3600) as server:
        embedding = {"embedder": "openai/loopback-embed"} if embedder == "loopback" else {"embedder": "hashing"}
        thoughts = None
        if mind == "offline":
            model = SmallvilleModel(agents=agents, api_base=server.url, thinking_steps=thinking_steps, **embedding)
            most_in_flight = _add_latency(model.gateway.backend("offline"), latency)
            thoughts = _record_thoughts(model) if embedder == "hashing" else None
        else:
            model = SmallvilleModel(
                agents=agents, llm="openai/loopback", api_base=server.url, thinking_steps=thinking_steps, **embedding
            )
            most_in_flight = lambda: server.stats.max_in_flight  # noqa: E731 - read after the run
        figures = _figures(model, until, latency, most_in_flight)
        figures["schedule"] = _schedule_bound(thoughts, latency) if thoughts is not None else None
        return figures


def _record_thoughts(model: SmallvilleModel) -> list[dict]:
    """Record each thought the model starts: its step, its due step, and (filled by the calls) its rounds of calls."""
    thoughts, start = [], model.thoughts.start

    def recorded(name, thinking, shown, due):
        thought = {"start": model.step_count, "due": due, "rounds": 0, "in_flight": 0}
        thoughts.append(thought)
        token = _THOUGHT.set(thought)
        try:
            start(name, thinking, shown, due)
        finally:
            _THOUGHT.reset(token)

    model.thoughts.start = recorded
    return thoughts


def _schedule_bound(thoughts: list[dict], latency: float) -> float:
    """The earliest the last step can end under the thinking rule, the engine's own work taken as nothing."""
    due_at: dict[int, list[dict]] = {}
    for thought in thoughts:
        due_at.setdefault(thought["due"], []).append(thought)
    ends: dict[int, float] = {}  # the end of each step that a thought was due at or that came before one's start
    steps = sorted({thought["due"] for thought in thoughts} | {thought["start"] - 1 for thought in thoughts})
    end = 0.0
    for step in steps:
        for thought in due_at.get(step, ()):
            end = max(end, ends.get(thought["start"] - 1, 0.0) + thought["rounds"] * latency)
        ends[step] = end
    return end


def _add_latency(backend, latency: float):
    """Make a backend answer `latency` seconds late (inside the gateway's cap, as a remote model would); returns a
    function that tells the most calls it had in flight at once."""
    complete = backend.complete
    flight = {"now": 0, "most": 0}

    async def late(*args, **kwargs):
        flight["now"] += 1
        flight["most"] = max(flight["most"], flight["now"])
        thought = _THOUGHT.get()
        if thought is not None:
            thought["rounds"] += thought["in_flight"] == 0
            thought["in_flight"] += 1
        try:
            await asyncio.sleep(latency)
            return await complete(*args, **kwargs)
        finally:
            flight["now"] -= 1
            if thought is not None:
                thought["in_flight"] -= 1

    backend.complete = late
    return lambda: flight["most"]


def _figures(model: SmallvilleModel, until: datetime, latency: float, most_in_flight) -> dict:
    """Run the model to `until`, counting the steps that waited for answers; the figures of the run."""
    waits = 0
    apply = model._apply_thoughts

    def counted(names, view):
        nonlocal waits
        waits += bool(names)
        apply(names, view)

    model._apply_thoughts = counted
    embedder = model.people[0].memories.embedder
    batches = embedder.batches
    started = time.perf_counter()
    model.run_until(until)
    wall = time.perf_counter() - started
    model.close()
    in_flight = most_in_flight()
    totals = model.gateway.ledger.totals()
    busiest = max(item.calls for item in model.gateway.ledger.by_agent().values())
    ideal = max(busiest, totals.calls / model.gateway.config.max_in_flight) * latency
    aware = {fact.id: model.social.aware_share(fact.id) for fact in model.setting.facts}
    talks = sum(entry["kind"] == "talk" for entry in model.event_log)
    return {"wall": wall, "calls": totals.calls, "in_flight": in_flight, "waits": waits,
            "busiest": busiest, "ideal": ideal, "embedding_batches": embedder.batches - batches, "talks": talks,
            "density": model.social.density(), "aware": aware,
            "load": os.getloadavg()[0]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mind", choices=("loopback", "offline"), default="loopback")
    parser.add_argument("--embedder", choices=("hashing", "loopback"), default="hashing")
    parser.add_argument("--agents", type=int, default=25)
    parser.add_argument("--until", default="2023-02-14T00:00")
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--thinking-steps", default="0,1,2,3", help="the settings to compare (0 = lock-step)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each setting (the wall time is their median)")
    args = parser.parse_args()
    until = datetime.fromisoformat(args.until)
    print(
        f"{args.agents} agents to {until:%Y-%m-%d %H:%M}, {args.latency * 1000:.0f} ms a call, {args.mind} mind, "
        f"{args.embedder} embedder"
    )
    for steps in (int(value) for value in args.thinking_steps.split(",")):
        runs = [run(args.mind, args.embedder, args.agents, until, args.latency, steps) for _ in range(args.repeats)]
        first, wall = runs[0], statistics.median(figures["wall"] for figures in runs)
        aware = ", ".join(f"{fact} {100 * share:.0f}%" for fact, share in first["aware"].items())
        print(
            f"thinking steps {steps}: wall {wall:.1f} s (median of {len(runs)}: "
            f"{', '.join(f'{figures["wall"]:.1f}' for figures in runs)}), {first['calls']} calls, "
            f"most in flight {first['in_flight']}, {first['waits']} steps waited, busiest agent {first['busiest']} "
            f"calls, ideal {first['ideal']:.1f} s, ratio {wall / first['ideal']:.1f}x, "
            f"{first['embedding_batches']} embedding batches   "
            f"load {', '.join(f'{figures["load"]:.2f}' for figures in runs)}"
        )
        if first["schedule"] is not None:
            schedule = statistics.median(figures["schedule"] for figures in runs)
            print(
                f"    the thinking rule's own bound {schedule:.1f} s ({schedule / first['ideal']:.1f}x the ideal): "
                f"the wall is {wall / schedule:.2f}x it"
            )
        print(f"    town: {first['talks']} talks, density {first['density']:.3f}, aware: {aware}")


if __name__ == "__main__":
    main()
