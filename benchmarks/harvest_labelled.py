"""Harvest interview answers the pipeline really produced into the labelled set's candidates, labelled by provenance.

For each evaluated run folder given, every fact check's answer (RUN/evaluation/checks.jsonl) becomes a candidate:
the question, the answer, the fact and the speaker. Its label comes from the run's provenance where that decides: an
agent none of whose memories the fact's keyword rule matches (the run's own per-step record, never the judge), and
which is not the fact's source, was never exposed to it and cannot state it: "no". Where provenance cannot decide
(exposed agents and sources: whether this answer states the fact depends on what it says), the candidate is written
with `label = "hand"` and no `shows`, for a reader to label (and a second pass, blind to the first).
Identical answers to the same fact by the same speaker are kept once. The part (development or held-out) is given on
the command line: a whole run goes to one part, chosen before any judge is run on it.
Run: .venv/bin/python benchmarks/harvest_labelled.py --part held_out --origin "offline run, seed 1" RUN [RUN...]
"""

import argparse
import json
from pathlib import Path

from smallville.evaluation.restore import load_model


def candidates(run: Path, part: str, origin: str) -> list[dict]:
    """The run's fact-check answers, provenance-labelled where it decides."""
    model = load_model(run)
    try:
        facts = {fact.id: fact for fact in model.setting.facts}
        exposed = {fact: set(model.social.awareness.get(fact, {})) for fact in facts}
    finally:
        model.close()
    checks = [json.loads(line) for line in (run / "evaluation" / "checks.jsonl").read_text().splitlines() if line]
    found, seen = [], set()
    for record in checks:
        if record["kind"] != "fact":
            continue
        fact, agent = facts[record["subject"]], record["agent"]
        if (fact.id, agent, record["answer"]) in seen:
            continue
        seen.add((fact.id, agent, record["answer"]))
        decided = agent not in exposed[fact.id] and agent not in fact.sources
        item = {"id": f"{run.name}|{fact.id}|{agent}", "part": part, "origin": origin, "fact": fact.description,
                "speaker": agent, "question": record["question"], "answer": record["answer"],
                "label": "provenance" if decided else "hand"}  # fmt: skip
        if decided:
            item["shows"] = False
        found.append(item)
    return found


def toml_item(item: dict) -> str:
    """One [[answers]] table, strings escaped as TOML basic strings."""
    lines = ["[[answers]]"]
    for key, value in item.items():
        shown = str(value).lower() if isinstance(value, bool) else json.dumps(value, ensure_ascii=False)
        lines.append(f"{key} = {shown}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--part", choices=("development", "held_out"), required=True)
    parser.add_argument("--origin", required=True)
    args = parser.parse_args()
    for run in args.runs:
        for item in candidates(run, args.part, args.origin):
            print(toml_item(item), end="\n\n")


if __name__ == "__main__":
    main()
