"""The town against a model with latency: lock-step against thinking that overlaps time, through litellm and a
loopback server.

Prints, for each number of thinking steps (0 = the paper's lock-step), the median wall time of the runs, model calls,
the most calls in flight, the steps that waited for answers, the ideal bound max(busiest agent's calls, calls / cap)
x latency and the ratio to it, with the load average; then what the choice changes in the town (talks and their
median length in simulated minutes, density, awareness of each tracked fact). `--talk-thinking-steps` sets the steps
a line of talk takes in every setting (0, the default, as in lock-step; "same" for each setting's N, the rule
before lines of talk had their own). One day's town is one sample of a chaotic system, so the towns of other seeds
(--town-seeds, run without latency: the run is the same at any latency) are shown beside it as ranges; a comparison
of settings on seed 0 alone once showed a difference the other seeds did not bear out.

With the hashing embedder it also prints three bounds of the run's own thoughts
(engine_bounds.py): the wall any engine with one clock for the town could reach (the wall's ratio to it is what this
engine loses), the wall of engines that let agents out of each other's sight step on their own clocks (and, a
what-if, the same if agents saw each other a step late, so that none had to step together), and the ideal
with talk: the issue's ideal counting that a line of talk waits for the partner's line before it.

Two minds: `loopback` goes through litellm to a loopback server that answers every request type validly
(testing/loopback_answers.py) with the given latency; its call pattern is the loopback's (~17 calls per
agent-day). `offline` is the offline mind with the latency added under the gateway's in-flight cap: a real model's
call pattern (~55 calls per agent-day) without litellm.

`--latency-spread S` spreads each call's latency log-normally around `--latency` (its median), as a hosted model's
spreads: lock-step then waits for the slowest call of each step, and overlapping thoughts only for those due. A
request's draw is seeded by its text (testing/loopback_server.py `call_latency`), so a run repeats; the ideal
and the bounds then count each call's own latency.

Two embedders: `hashing` (local, instant) or `loopback`, an embedding API through litellm: the loopback server's
/v1/embeddings with the same latency, so storing and retrieving memories wait as they would for a hosted embedder.

Where the server runs (`--server`): `process` (the default) serves from a process of its own, as a model server runs
beside the town and not in it; `thread` serves from a thread of the town's own process, so that its work (reading
requests, writing answers) takes turns with the town's under one interpreter lock.

    .venv/bin/python benchmarks/bench_engine.py [--mind loopback|offline] [--embedder hashing|loopback] [--agents 25]
        [--until 2023-02-14T00:00] [--latency 0.3] [--latency-spread 0.5] [--thinking-steps 0,20]
        [--talk-thinking-steps 0|N|same] [--repeats 3] [--town-seeds 1,2,3]
        [--server process|thread]
"""

import argparse
import asyncio
import contextlib
import contextvars
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from engine_bounds import Recording, barrier_bound, free_clocks_bound, talk_chain_bound

from agents.embedder_choice import forget_embedders
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest, ReactionRequest
from smallville.heap import settled_heap
from smallville.model import SmallvilleModel
from testing import LoopbackServer, call_latency

# Tiles beyond the vision radius within which two agents must step together for the free-clocks bound: what each
# sees, and the tile each may take in the step (engine_bounds.py).
SIGHT_MARGIN = 2
# The what-if of engine_bounds.py: free clocks if agents saw each other this many steps late.
PERCEPTION_DELAY = 1
# The thought whose task makes a call (a task copies the context it was created in, so the thought's calls see it).
_THOUGHT: contextvars.ContextVar[dict | None] = contextvars.ContextVar("thought", default=None)


@contextlib.contextmanager
def loopback_server(latency: float, spread: float, where: str) -> Iterator[str]:
    """A loopback server answering `latency` seconds late (spread as `call_latency` spreads it), in its own process or
    in a thread of this one; its URL."""
    if where == "thread":
        with LoopbackServer(latency=latency, latency_spread=spread, lifetime_s=3600) as server:
            yield server.url
        return
    command = [sys.executable, "-m", "testing", "--latency", str(latency), "--latency-spread", str(spread)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as server:
        try:
            yield json.loads(server.stdout.readline())["url"]
        finally:
            server.terminate()


def run(
    mind: str, embedder: str, agents: int, until: datetime, latency: float, thinking: dict, seed: int = 0,
    bounds: bool = True, server: str = "process", spread: float = 0.0,
) -> dict:  # fmt: skip
    """One run with this seed and `thinking` (thinking_steps, talk_thinking_steps); its figures (with the bounds of
    its thoughts if asked and the embedder is hashing)."""
    os.environ.setdefault("OPENAI_API_KEY", "sk-loopback")
    forget_embedders()  # each run starts cold, as a new process would
    with loopback_server(latency, spread, server) as url:
        embedding = {"embedder": "openai/loopback-embed"} if embedder == "loopback" else {"embedder": "hashing"}
        if mind == "offline":
            model = SmallvilleModel(agents=agents, api_base=url, rng=seed, **thinking, **embedding)
            calls = _count_in_flight(model.gateway.backend("offline"), latency, spread, delay=True)
        else:
            model = SmallvilleModel(
                agents=agents, llm="openai/loopback", api_base=url, rng=seed, **thinking, **embedding
            )
            calls = _count_in_flight(model.gateway.backend("openai/loopback"), latency, spread, delay=False)
        recording = _record(model) if embedder == "hashing" and bounds else None
        figures = _figures(model, until, calls)
        if recording is not None:
            for thought in recording.thoughts:
                thought["due"] = thought.pop("of").due  # a thought that asked no model was due at its own step
            figures["barrier"] = barrier_bound(recording)
            radius = model.config.vision_radius + SIGHT_MARGIN
            figures["free"] = free_clocks_bound(recording, radius)
            figures["free_late"] = free_clocks_bound(recording, radius, lookahead=PERCEPTION_DELAY)
            figures["talk_chain"] = max(talk_chain_bound(recording), figures["ideal"])
            figures["waited_for"] = _waited_for(recording)
        return figures


# What the steps that waited waited for: the thoughts due at a step that asked a model, by the kinds of their calls.
TALK_KINDS = frozenset({ConversationLineRequest.kind, ConversationSummaryRequest.kind})


def _waited_for(recording: Recording) -> dict[str, int]:
    """The steps that waited, sorted by what for: only lines of talk and talks' summaries (one after another by
    nature: a line waits for the partner's), only reactions to someone in view (whether to talk), or anything else
    (plans, actions, reflection) among them."""
    due: dict[int, set[str]] = {}
    for thought in recording.thoughts:
        if thought["rounds"] and thought["due"] < len(recording.tiles):  # not one still in flight when the run ended
            due.setdefault(thought["due"], set()).update(thought["kinds"])
    counts = {"talk": 0, "reaction": 0, "other": 0}
    for kinds in due.values():
        counts["talk" if kinds <= TALK_KINDS else "reaction" if kinds == {ReactionRequest.kind} else "other"] += 1
    return counts


def _record(model: SmallvilleModel) -> Recording:
    """Record each thought the model starts (its agent, step, due step, talk partner and, filled by its calls, its
    rounds of calls) and where each agent stands at each step."""
    recording, start, step = Recording(names=[agent.name for agent in model.people]), model.thoughts.start, model._step
    people = {agent.name: agent for agent in model.people}

    def started(name, thinking, shown, due):
        talk = people[name].conversation
        thought = {"agent": name, "start": model.step_count, "due": due, "rounds": 0, "in_flight": 0, "wait": 0.0,
                   "kinds": set(), "partner": talk.partner_of(name) if talk else None}  # fmt: skip
        recording.thoughts.append(thought)
        token = _THOUGHT.set(thought)
        try:
            thought["of"] = start(name, thinking, shown, due)  # its due step is final once sorted out
        finally:
            _THOUGHT.reset(token)

    def stepped():
        recording.tiles.append([agent.tile for agent in model.people])
        step()

    model.thoughts.start, model._step = started, stepped
    return recording


@dataclass
class Flight:
    """What a run's model calls did: the most in flight at once, and each agent's calls and the seconds they waited."""

    now: int = 0
    most: int = 0
    calls: Counter = field(default_factory=Counter)
    waited: Counter = field(default_factory=Counter)


def _count_in_flight(backend, latency: float, spread: float, *, delay: bool) -> Flight:
    """Count a backend's calls in flight and how long each waits for its answer (`call_latency`, the loopback
    server's own draw), making the backend itself answer that late if `delay` (inside the gateway's cap, as a remote
    model would). Each thought's rounds of calls are counted too, a round lasting as long as its slowest call."""
    complete = backend.complete
    flight = Flight()

    async def late(request, messages, parameters):
        wait = call_latency(latency, spread, [message["content"] for message in messages])
        flight.now += 1
        flight.most = max(flight.most, flight.now)
        thought = _THOUGHT.get()
        if thought is not None:
            flight.calls[thought["agent"]] += 1
            thought["kinds"].add(request.kind)
            flight.waited[thought["agent"]] += wait
            if thought["in_flight"] == 0:
                thought["rounds"] += 1
                thought["round"] = 0.0
            thought["wait"] += max(wait - thought["round"], 0.0)
            thought["round"] = max(thought["round"], wait)
            thought["in_flight"] += 1
        try:
            if delay and wait:
                await asyncio.sleep(wait)
            return await complete(request, messages, parameters)
        finally:
            flight.now -= 1
            if thought is not None:
                thought["in_flight"] -= 1

    backend.complete = late
    return flight


def _figures(model: SmallvilleModel, until: datetime, flight: Flight) -> dict:
    """Run the model to `until`, counting the steps that waited for answers; the figures of the run."""
    waits = 0
    apply = model._apply_thoughts

    def counted(names, view):
        nonlocal waits
        thoughts = [model.thoughts[name] for name in names]
        apply(names, view)
        waits += any(thought.asked_model for thought in thoughts)  # one that asked none took no latency

    model._apply_thoughts = counted
    embedder = model.people[0].memories.embedder
    batches = embedder.batches
    started = time.perf_counter()
    with settled_heap():  # the collector as `run.py simulate` sets it
        model.run_until(until)
    wall = time.perf_counter() - started
    model.close()
    totals = model.gateway.ledger.totals()
    busiest = max(flight.calls.values(), default=0)  # the run's calls, not the build's
    waited = flight.waited.values()  # the ideal, with each call's own latency
    ideal = max(max(waited, default=0.0), sum(waited) / model.gateway.config.max_in_flight)
    aware = {fact.id: model.social.aware_share(fact.id) for fact in model.setting.facts}
    minutes = _talk_minutes(model.event_log)
    return {"wall": wall, "calls": totals.calls, "in_flight": flight.most, "waits": waits,
            "busiest": busiest, "ideal": ideal, "embedding_batches": embedder.batches - batches, "talks": len(minutes),
            "talk_minutes": statistics.median(minutes) if minutes else 0.0,
            "density": model.social.density(), "aware": aware,
            "load": os.getloadavg()[0]}  # fmt: skip


def _talk_minutes(events: list[dict]) -> list[float]:
    """How long each talk that ended lasted in simulated minutes, from its first line to its summary."""
    first_line: dict[frozenset, datetime] = {}
    minutes = []
    for entry in events:
        pair = frozenset((entry["agent"], entry.get("partner")))
        if entry["kind"] == "line":
            first_line.setdefault(pair, datetime.fromisoformat(entry["time"]))
        elif entry["kind"] == "talk" and pair in first_line:
            minutes.append((datetime.fromisoformat(entry["time"]) - first_line.pop(pair)).total_seconds() / 60)
    return minutes


def _spread(towns: list[dict], name: str, form: str) -> str:
    """A figure's range over the towns, with its median (the lower middle value of an even count)."""
    values = sorted(town[name] for town in towns)
    return f"{values[0]:{form}}-{values[-1]:{form}} (median {statistics.median_low(values):{form}})"


def _talk_steps(text: str) -> str:
    """--talk-thinking-steps: a whole number or "same"."""
    if text != "same" and not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number, e.g. 0, or same")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mind", choices=("loopback", "offline"), default="loopback")
    parser.add_argument("--embedder", choices=("hashing", "loopback"), default="hashing")
    parser.add_argument("--agents", type=int, default=25)
    parser.add_argument("--until", default="2023-02-14T00:00")
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument(
        "--latency-spread", type=float, default=0.0,
        help="spread each call's latency log-normally around --latency with this shape (0.5: one call in twenty "
        "over 2.3x), as a hosted model's spreads",
    )  # fmt: skip
    parser.add_argument(
        "--thinking-steps", default="0,20", help="the settings to compare (0 = lock-step, 20 = the default)"
    )
    parser.add_argument(
        "--talk-thinking-steps", default="0", type=_talk_steps,
        help='steps a line of talk takes in each setting: a number, or "same" for its --thinking-steps',
    )  # fmt: skip
    parser.add_argument("--repeats", type=int, default=3, help="runs of each setting (the wall time is their median)")
    parser.add_argument(
        "--town-seeds", default="1,2,3", help="other seeds whose towns to show beside seed 0's, run without latency"
    )
    parser.add_argument(
        "--server", choices=("process", "thread"), default="process",
        help="where the loopback server runs: its own process (as a model server would) or a thread of the town's",
    )  # fmt: skip
    args = parser.parse_args()
    until = datetime.fromisoformat(args.until)
    print(
        f"{args.agents} agents to {until:%Y-%m-%d %H:%M}, {args.latency * 1000:.0f} ms a call"
        f"{f' (median; log-normal spread {args.latency_spread})' if args.latency_spread else ''}, {args.mind} mind, "
        f"{args.embedder} embedder, loopback server in a {args.server}"
    )
    for steps in (int(value) for value in args.thinking_steps.split(",")):
        talk_steps = steps if args.talk_thinking_steps == "same" else int(args.talk_thinking_steps)
        thinking = {"thinking_steps": steps, "talk_thinking_steps": talk_steps}
        options = {"server": args.server, "spread": args.latency_spread}
        runs = [
            run(args.mind, args.embedder, args.agents, until, args.latency, thinking, **options)
            for _ in range(args.repeats)
        ]
        first, wall = runs[0], statistics.median(figures["wall"] for figures in runs)
        aware = ", ".join(f"{fact} {100 * share:.0f}%" for fact, share in first["aware"].items())
        print(
            f"thinking steps {steps} (in a talk {talk_steps}): wall {wall:.1f} s (median of {len(runs)}: "
            f"{', '.join(f'{figures["wall"]:.1f}' for figures in runs)}), {first['calls']} calls, "
            f"most in flight {first['in_flight']}, {first['waits']} steps waited, busiest agent {first['busiest']} "
            f"calls, ideal {first['ideal']:.1f} s, ratio {wall / first['ideal']:.1f}x, "
            f"{first['embedding_batches']} embedding batches   "
            f"load {', '.join(f'{figures["load"]:.2f}' for figures in runs)}"
        )
        if "barrier" in first:
            barrier, free, late = first["barrier"], first["free"], first["free_late"]
            print(
                f"    bounds of these thoughts: one clock {barrier:.1f} s ({barrier / first['ideal']:.1f}x the ideal; "
                f"the wall is {wall / barrier:.2f}x it), free clocks {free:.1f} s ({free / first['ideal']:.1f}x), "
                f"free clocks if agents saw each other {PERCEPTION_DELAY} step late {late:.1f} s "
                f"({late / first['ideal']:.2f}x)"
            )
            waited_for = first["waited_for"]
            print(
                f"    steps that waited for thoughts that asked a model: {sum(waited_for.values())}; only for lines of "
                f"talk or talks' summaries {waited_for['talk']}, only for reactions {waited_for['reaction']}, for "
                f"anything else among them {waited_for['other']}"
            )
            print(
                f"    the ideal with talk (a line waits for the partner's): {first['talk_chain']:.1f} s, "
                f"ratio {wall / first['talk_chain']:.1f}x"
            )
        print(
            f"    town: {first['talks']} talks (median {first['talk_minutes']:.1f} simulated minutes), "
            f"density {first['density']:.3f}, aware: {aware}"
        )
        seeds = [int(value) for value in args.town_seeds.split(",") if value]
        if seeds:
            towns = [first] + [
                run(args.mind, args.embedder, args.agents, until, 0.0, thinking, seed=seed, bounds=False)
                for seed in seeds
            ]
            print(f"    towns of seeds 0,{args.town_seeds}: " + _spread(towns, "talks", "d") + " talks, density "
                  + _spread(towns, "density", ".3f") + ", calls " + _spread(towns, "calls", "d"))  # fmt: skip


if __name__ == "__main__":
    main()
