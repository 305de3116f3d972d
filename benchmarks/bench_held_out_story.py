"""A held-out story against the party: news of another kind, seeded to another agent, spreads by the same rules?

The town's tracked facts (the party, the candidacy) are the ones the offline mind was built beside. This seeds a fact
of another kind (an accident: a fire with people hurt, no gathering, no invitation, no date ahead) to another agent,
in a seeded memory of the same form as the party's, and counts after the run how many agents other than each fact's
source know it (the town's memory-text estimate, model.social), over seeds.
Run: .venv/bin/python benchmarks/bench_held_out_story.py [days, default 2] [seeds, default 0-3] [hashing|minilm]
[--source NAME] (the 25-agent town; each seed's two days take a few minutes on 2 cores with hashing). `--source
"Isabella Rodriguez"` gives the story to the party's own host, so that the story's kind is compared from the same
mouth: what differs then is the story, not how many people its source meets.
"""

import argparse
import json
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from smallville.model import SmallvilleModel
from smallville.scenarios.scenario import DATA_DIR, load_scenario

TOWN = "the_ville_n25"
SOURCE = "Carmen Ortiz"
STORY = (
    "You saw a fire break out in the kitchen of the Rose and Crown Pub last night, and two people were hurt and "
    "taken to the hospital"
)
FACT = {
    "id": "fire",
    "sources": [SOURCE],
    "description": "A fire broke out in the kitchen of the Rose and Crown Pub and two people were hurt",
    "keywords": [["fire"], ["hurt", "injur*", "hospital", "burn*"]],
}


def story_scenario(folder: Path, source: str = SOURCE) -> Path:
    """The 25-agent town with the story added to its source's seeded memories and tracked as a fact."""
    scenario = json.loads((Path(DATA_DIR) / "scenarios" / f"{TOWN}.json").read_text())
    whispers = (Path(DATA_DIR) / load_scenario(TOWN).whispers).read_text().splitlines()
    rows, added = [], False
    for row in whispers:
        if row.startswith(f"{source},"):  # the story joins the source's other seeded memories
            name, _, text = row.partition(",")
            rows.append(f'{name},"{text.strip().strip(chr(34))};{STORY}"')
            added = True
        else:
            rows.append(row)
    if not added:
        rows.append(f'{source},"{STORY}"')
    (folder / "whispers.csv").write_text("\n".join(rows) + "\n")
    scenario.update(name=f"{TOWN}_held_out_story", whispers=str(folder / "whispers.csv"))
    scenario["facts"] = [*scenario["facts"], {**FACT, "sources": [source]}]
    path = folder / "scenario.json"
    path.write_text(json.dumps(scenario))
    return path


def spread(path: Path, seed: int, days: float, embedder: str) -> dict[str, int]:
    """How many agents besides its sources know each fact after the run."""
    model = SmallvilleModel(scenario_name=str(path), embedder=embedder, rng=seed)
    model.run_until(model.start + timedelta(days=days))
    model.close()
    sources = {fact.id: set(fact.sources) for fact in model.setting.facts}
    return {fact: len(set(known) - sources[fact]) for fact, known in model.social.awareness.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("days", nargs="?", type=float, default=2.0)
    parser.add_argument("seeds", nargs="?", default="0-3", help="e.g. 0-3 or 0,2")
    parser.add_argument("embedder", nargs="?", default="hashing", choices=("hashing", "minilm"))
    parser.add_argument("--source", default=SOURCE, help=f"who is given the story (default {SOURCE})")
    arguments = parser.parse_args()
    low, _, high = arguments.seeds.partition("-")
    seeds = range(int(low), int(high) + 1) if high else [int(seed) for seed in arguments.seeds.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        path = story_scenario(Path(folder), arguments.source)
        tallies: dict[str, list[int]] = {}
        for seed in seeds:
            started = time.perf_counter()
            reached = spread(path, seed, arguments.days, arguments.embedder)
            for fact, count in reached.items():
                tallies.setdefault(fact, []).append(count)
            shown = ", ".join(f"{fact} {count}" for fact, count in reached.items())
            print(f"seed {seed}: agents reached besides the source: {shown} ({time.perf_counter() - started:.0f} s)")
    for fact, counts in tallies.items():
        print(f"{fact}: mean {statistics.mean(counts):.1f} of 24 over seeds {list(seeds)}: {counts}")


if __name__ == "__main__":
    main()
