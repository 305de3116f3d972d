"""One intervention's effect over seeds: a fact whispered to one agent at 08:00 against the same town without it.

The 25-agent town for its first day, offline, as a batch of two conditions x N seeds (smallville.batch). The fact is
new to the town (it is in no persona's memories) and tracked with a fact of its own in a copy of the scenario, so the
per-step awareness estimate counts who knows it; its words are the user's, and the offline mind passes it on by the
same rules as any news. Prints, per condition, how many know it at the end of the day (mean, spread, 95% bootstrap
interval), and writes `run.py compare`'s plots for one seed.
Run: .venv/bin/python benchmarks/bench_intervention.py [--seeds 5] [--until 2023-02-14T00:00] [--out DIR]
"""

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.stats import bootstrap

from smallville.batch import Budget, LocalExecutor, expand, prepare, results_frame, run_batch, validate_grid
from smallville.cli import main as cli
from smallville.scenarios.scenario import SCENARIOS_DIR

TOLD = "Isabella Rodriguez"
FACT = "The town library will close early this Friday for repairs"
KEYWORDS = "library;close*,closing,repair*"


def scenario(folder: Path, fact: str, keywords: str) -> Path:
    """A copy of the 25-agent scenario that also tracks the fact as `news` (paths stay relative to data/).

    `keywords` are groups separated by ";", the words of a group by "," (a memory knows it when it matches a word of
    every group, smallville/scenarios/scenario.py).
    """
    data = json.loads((SCENARIOS_DIR / "the_ville_n25.json").read_text())
    groups = [[word.strip() for word in group.split(",")] for group in keywords.split(";")]
    data["facts"] = [*data["facts"], {"id": "news", "description": fact, "sources": [], "keywords": groups}]
    path = folder / "the_ville_n25_news.json"
    path.write_text(json.dumps(data))
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--until", default="2023-02-14T00:00:00")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="where to keep the batch and the comparison (default: a temporary folder)")
    parser.add_argument("--told", default=TOLD, help="who is whispered the fact")
    parser.add_argument("--fact", default=FACT)
    parser.add_argument("--keywords", default=KEYWORDS, help="how the fact is recognized in memories (see scenario)")
    args = parser.parse_args()
    folder = Path(args.out) if args.out else Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    grid = {
        "seeds": list(range(args.seeds)),
        "scenarios": [str(scenario(folder, args.fact, args.keywords))],
        "until": args.until,
        "parameters": {"embedder": "hashing"},
        "conditions": {
            "plain": {},
            "told": {
                "interventions": [
                    {"time": "2023-02-13T08:00:00", "kind": "whisper", "target": args.told, "text": args.fact}
                ]
            },
        },
    }
    cells = expand(validate_grid(grid, "bench"))
    batch = folder / "batch"
    prepare(batch, cells, grid)
    started = time.perf_counter()
    run_batch(batch, cells, LocalExecutor(batch, workers=args.workers), Budget())
    wall = time.perf_counter() - started
    table = results_frame(batch)
    print(f"{len(cells)} cells of 25 agents to {args.until} in {wall:.0f} s; load average {os.getloadavg()}")
    for condition in ("plain", "told"):
        rows = table[table["condition"] == condition]
        knowing = [round(share * 25) for share in rows["aware_news_end"]]
        low, high = (
            (min(knowing), max(knowing))
            if len(set(knowing)) == 1
            else bootstrap((knowing,), np.mean, n_resamples=2000, random_state=0).confidence_interval
        )
        spread = statistics.stdev(knowing) if len(knowing) > 1 else 0.0
        print(f"{condition}: know the fact at the end: {knowing} -> mean {statistics.mean(knowing):.1f} "
              f"(sd {spread:.1f}, 95% CI {low:.1f}-{high:.1f}) of 25; calls {list(rows['calls'])}")  # fmt: skip
    plain, told = batch / "cells" / f"plain--{Path(grid['scenarios'][0]).stem}--seed0", None
    told = batch / "cells" / f"told--{Path(grid['scenarios'][0]).stem}--seed0"
    cli(["compare", str(plain), str(told), "--out", str(folder / "compare")])
    print(f"batch and comparison kept in {folder}")
    if not args.out:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
