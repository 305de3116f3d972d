"""A simulated day of the 25 agents offline: wall time, peak memory, calls and tokens per agent-day by request kind.

Targets (DESIGN.md): under 30 s on 2 cores; at most 60 model calls and 50k tokens (litellm's counter) per agent-day.
Run: .venv/bin/python benchmarks/bench_day.py [minilm|hashing|minilm-onnx] [days] [name=value ...]   (2 days: the
paper's run). `minilm-onnx` runs MiniLM's graph in onnxruntime instead of numpy (onnx_minilm.py; needs
`uv pip install onnx onnxruntime`, which the project does not depend on).
The name=value pairs set town or mind parameters (e.g. conversation_memories=10) to measure what a setting saves;
runs=N runs the day N times in this process and prints each wall time with the load average, and their median (the
figures below them are the last run's: every run makes the same calls). Each run starts with a cold embedding cache
(the embedders are shared in a process, so a second run would otherwise find every text encoded). Each run also
prints how long the town's thread worked and how long its event loop sat waiting (offline: for MiniLM's vectors).
short_prefix=1 counts the tokens of the short system prompt (what a model whose provider caches no long prefix gets:
the instructions and persona of before the long cacheable prefix), so that the prefix's own cost can be told apart;
the calls and the day are the same either way.
"""

import argparse
import os
import resource
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from timing import time_calls

from agents.embedder_choice import forget_embedders
from agents.language.gateway import OFFLINE
from memory import embeddings
from smallville.heap import settled_heap
from smallville.model import SmallvilleModel


def _setting(text: str) -> tuple[str, int]:
    """A name=value pair of the command line (a whole-number town or mind parameter, or runs)."""
    name, equals, value = text.partition("=")
    if not equals or not value.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give name=whole number, e.g. conversation_memories=10 or runs=3")
    return name, int(value)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", nargs="?", default="minilm", choices=("minilm", "hashing", "minilm-onnx"))
    parser.add_argument("days", nargs="?", type=float, default=1.0, help="simulated days (2: the paper's run)")
    parser.add_argument("settings", nargs="*", type=_setting, help="name=value: a parameter, or runs=N")
    return parser.parse_args()


def main() -> None:
    arguments = _arguments()
    label = arguments.label
    embedder = "minilm" if label == "minilm-onnx" else label
    if label == "minilm-onnx":
        try:
            import onnx  # noqa: F401
            import onnxruntime  # noqa: F401
        except ModuleNotFoundError as missing:
            sys.exit(f"minilm-onnx needs {missing.name}: uv pip install onnx onnxruntime (not a dependency)")
        # The town's encoder process runs the sibling onnx_minilm.py's encoder instead of the numpy one.
        here = str(Path(__file__).resolve().parent)
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (here, os.environ.get("PYTHONPATH"))))
        embeddings.MINILM_ENCODER = "onnx_minilm:DayOnnxEncoder"
    days = arguments.days
    settings = dict(arguments.settings)
    walls = []
    short_prefix = bool(settings.pop("short_prefix", 0))
    for run in range(settings.pop("runs", 1)):
        forget_embedders()
        started = time.perf_counter()
        model = SmallvilleModel(scenario_name="the_ville_n25", embedder=embedder, rng=0, **settings)
        built = time.perf_counter() - started
        if short_prefix:  # the gateway's choice for the offline model, made before its first request
            model.gateway._long_prefix[OFFLINE] = False
        waited = time_calls(model._loop._selector, "select")  # the event loop idle: waiting for vectors
        cpu = time.thread_time()
        with settled_heap():  # the collector as `run.py simulate` sets it
            model.run_until(model.start + timedelta(days=days))
        wall = time.perf_counter() - started
        walls.append(wall - built)
        print(
            f"run {run + 1}: build {built:.1f} s, day(s) {wall - built:.1f} s (the town's thread worked "
            f"{time.thread_time() - cpu:.1f} s and waited {waited[0]:.1f} s for vectors)   "
            f"load {os.getloadavg()[0]:.2f}"
        )
    print(f"median of {len(walls)}: {statistics.median(walls):.1f} s")
    people = len(model.people) * days
    totals = model.gateway.ledger.totals()
    print(f"embedder {label}: build {built:.1f} s, {days:g} day(s) {wall - built:.1f} s (target < 30 s a day)")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"model calls per agent-day {totals.calls / people:.1f} (target <= 60; the original ~600-1,300)")
    form = "short system prompt" if short_prefix else "long cacheable prefix"
    print(f"tokens per agent-day {totals.tokens / people:.0f} ({form}; target <= 50k; the original ~0.5 M), of which "
          f"{totals.cached_tokens / people:.0f} prompt tokens a provider's cache would serve: "
          f"{(totals.tokens - totals.cached_tokens) / people:.0f} read at full price")  # fmt: skip
    print(f"  {'kind':22s} {'calls':>6s} {'tokens':>7s} {'prompt':>7s} {'cached':>7s} {'answer':>7s}  (per agent-day)")
    for kind, kind_totals in sorted(model.gateway.ledger.by_kind().items()):
        print(
            f"  {kind:22s} {kind_totals.calls / people:6.1f} {kind_totals.tokens / people:7.0f}"
            f" {kind_totals.prompt_tokens / people:7.0f} {kind_totals.cached_tokens / people:7.0f}"
            f" {kind_totals.completion_tokens / people:7.0f}"
        )
    talks = sum(1 for entry in model.event_log if entry["kind"] == "talk")
    reflections = sum(1 for agent in model.people for node in agent.memories.stream if node.kind == "reflection")
    frame = model.datacollector.get_model_vars_dataframe()
    print(f"talks per agent-day {talks * 2 / people:.1f}, reflection nodes {reflections}")
    print(f"density {frame['density'].iloc[0]:.3f} -> {model.social.density():.3f} (paper: 0.167 -> 0.74)")
    print(f"at the party (Hobbs Cafe, Feb 14 5-7 pm): {sorted(model.social.attendees)}")
    print(", ".join(f"{fact.id} aware {100 * model.social.aware_share(fact.id):.0f}%" for fact in model.setting.facts))


if __name__ == "__main__":
    main()
