"""Fuzzed doors, a large budget: examples generated per door and the contract's violations, by class.

The same doors and checks as tests/smallville/fuzz/ (testing/door_checks.py), which run a small fixed budget in CI;
here each door gets `--examples` values (hypothesis, random seeds unless --seed), and every violation is counted
instead of stopping at the first: its class (the first words of what went wrong), how often, and one example.

    .venv/bin/python benchmarks/bench_fuzz_doors.py [--examples 300] [--door "grid files"] [--seed 0]
    .venv/bin/python benchmarks/bench_fuzz_doors.py --page [--examples 300]

`--page` knocks on the page's doors instead (testing/page_doors.py: every control's handler in-process, on a live
three-agent town and the replay of half an hour of it) and prints, per door, how many values were taken (queued and
honoured) and how many refused in one line, beside the violations.
"""

import argparse
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

from testing.page_doors import OUTCOMES


def _class(violation: str) -> str:
    """A violation's class: its kind and the exception or first words, without the value."""
    head, _, rest = violation.partition(": ")
    return f"{head}: {rest.split(':')[0][:60]}" if head in ("traceback", "taken by the flag, refused later") else head


def probe(name: str, strategy, check, examples: int, fixed_seed: int | None) -> tuple[int, Counter, dict]:
    """Run `check` on `examples` values of `strategy`; the count of values tried, violations by class, one each."""
    tried, counts, first = [0], Counter(), {}

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def door(value):
        tried[0] += 1
        violation = check(value)
        if violation:
            kind = _class(violation)
            counts[kind] += 1
            first.setdefault(kind, (value, violation))

    if fixed_seed is not None:
        door = seed(fixed_seed)(door)
    door()
    return tried[0], counts, first


def page_doors(folder: Path) -> dict:
    """The page's doors, on a live three-agent town and the replay of half an hour of it (simulated first, ~5 s)."""
    from smallville.app.replay import ReplayModel
    from smallville.cli import main as cli
    from smallville.model import SmallvilleModel
    from testing.page_doors import Page, doors

    run = folder / "page-run"
    argv = ["simulate", "--scenario", "the_ville_n3", "--embedder", "hashing", "--until", "2023-02-13T00:30"]
    assert cli([*argv, "--out", str(run)]) == 0
    live = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    return doors(Page(live, ReplayModel(str(run)), str(run)))


def main() -> None:
    """Probe every door (or one) and print examples, violations and a sample of each class."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="values per door (default: 300)")
    parser.add_argument("--door", action="append", help="only this door (repeatable)")
    parser.add_argument("--seed", type=int, help="hypothesis seed (default: random)")
    parser.add_argument("--page", action="store_true", help="the page's controls instead of the commands' doors")
    args = parser.parse_args()
    from testing.door_checks import doors

    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # nothing a command does with a relative path lands in the checkout
        table = page_doors(Path(folder)) if args.page else doors(Path(folder))
        total_tried, total_violations = 0, 0
        for name, (strategy, check) in table.items():
            if args.door and name not in args.door:
                continue
            started = time.perf_counter()
            OUTCOMES.clear()
            tried, counts, first = probe(name, strategy, check, args.examples, args.seed)
            total_tried += tried
            total_violations += sum(counts.values())
            taken = f" ({OUTCOMES['queued']} taken, {OUTCOMES['refused']} refused)" if args.page else ""
            print(f"{name:30} {tried:6d} examples{taken} {sum(counts.values()):5d} violations "
                  f"({time.perf_counter() - started:.0f} s)")  # fmt: skip
            for kind, count in counts.most_common():
                value, violation = first[kind]
                print(f"    {count:5d} x {kind}\n          e.g. {value!r:.200}\n          -> {violation:.300}")
        print(f"{'all doors':28} {total_tried:6d} examples {total_violations:5d} violations")


if __name__ == "__main__":
    main()
