"""End to end, offline: a 3-agent, six-hour run, then `evaluate` writes every artefact; a killed one resumes."""

import csv
import json
import shutil
from collections import Counter
from datetime import datetime

import pytest

from smallville.cli import main
from smallville.evaluation import Condition, EvaluationError, evaluate_run, register
from smallville.evaluation.conditions import CONDITIONS as DECLARED
from tests.smallville.run_folders import simulate_three

ARTEFACTS = {
    "answers.jsonl", "judgements.jsonl", "checks.jsonl", "ratings.csv", "statistics.csv", "measures.json",
    "hallucinations.csv", "cascade.csv", "ratings.png", "awareness.png", "summary.md", "ledger.json",
}  # fmt: skip
CONDITIONS = ["full", "no_reflection", "no_reflection_planning", "persona_only"]


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    return simulate_three(tmp_path_factory.mktemp("eval") / "run", "2023-02-13T06:00")


def _keys(path):
    return [json.loads(line)["key"] for line in path.read_text().splitlines()]


def _split(key: str) -> tuple[str, ...]:
    return tuple(key.split("|"))


@pytest.mark.slow
def test_evaluate_writes_every_artefact_and_resumes_without_asking_twice(run_folder):
    class Killed(Exception):
        pass

    def kill_after_60(done, total, totals):
        if done >= 60:
            raise Killed

    with pytest.raises(Killed):
        evaluate_run(run_folder, repeats=1, progress=kill_after_60)
    answers = run_folder / "evaluation" / "answers.jsonl"
    answered = len(answers.read_text().splitlines())
    assert answered >= 60
    answered_in = Counter((name, question.split(".")[0], condition) for name, question, condition in
                          map(_split, _keys(answers)))  # fmt: skip
    with answers.open("a") as handle:
        handle.write('{"key": "torn by the kill')  # a record cut half-way

    seen = []
    folder = evaluate_run(run_folder, repeats=1, progress=lambda done, total, totals: seen.append((done, total)))
    assert {path.name for path in folder.iterdir()} >= ARTEFACTS
    for journal in ("answers.jsonl", "judgements.jsonl", "checks.jsonl"):
        keys = _keys(folder / journal)
        assert not [key for key, count in Counter(keys).items() if count > 1], f"{journal} asked an item twice"
    questions, agents = 25, 3
    assert len(_keys(answers)) == agents * questions * len(CONDITIONS)
    assert len(_keys(folder / "judgements.jsonl")) == agents * questions
    assert len(_keys(folder / "checks.jsonl")) == agents * (2 + 2)  # two facts, two others each
    ledger = json.loads((folder / "ledger.json").read_text())
    checks = agents * 2  # its facts asked at once, its relationships at once
    # A category's questions (5) asked of an agent at once under a condition, those left by the kill only; identical
    # requests (conditions showing the same memories) once.
    left = {(name, question.split(".")[0], condition) for name, question, condition in map(_split, _keys(answers))}
    asked = ledger["requests_by_kind"]["interviews"] + ledger["requests_by_kind"].get("interview", 0)
    assert len(left) == agents * 5 * len(CONDITIONS)
    to_ask = len(left) - sum(1 for count in answered_in.values() if count == 5)  # a batch the kill cut: its rest
    assert asked <= to_ask + checks <= asked + ledger["reused"]
    assert seen[-1][0] == seen[-1][1]  # progress reached the total

    with (folder / "ratings.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["condition"] for row in rows] == CONDITIONS and set(rows[0]) == {"condition", "mu", "sigma"}
    measures = json.loads((folder / "measures.json").read_text())
    assert set(measures) == {"awareness", "awareness_interval", "awareness_estimate", "relationship_density",
                             "relationship_density_interval", "relationship_density_directed",
                             "relationship_density_estimate", "hallucinations", "hallucination_rate", "attendance",
                             "position_bias", "length_bias"}  # fmt: skip
    assert set(measures["awareness"]) == {"party", "candidacy"}
    assert measures["awareness"]["party"] >= 1 / 3  # the host knows her own party
    low, high = measures["awareness_interval"]["party"]
    assert low <= measures["awareness"]["party"] <= high
    summary = (folder / "summary.md").read_text()
    assert "test the code, not believability" in summary and "29.89" in summary
    assert "| awareness of party (%) |" in summary and "position bias:" in summary


@pytest.mark.slow  # evaluates a run three conditions twice
def test_identical_conditions_get_equal_ratings(run_folder, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(run_folder, run, ignore=shutil.ignore_patterns("evaluation"))
    register(Condition("full_again", "the full architecture again"))
    try:
        folder = evaluate_run(run, conditions=["full", "full_again", "persona_only"], repeats=2)
    finally:
        DECLARED.pop("full_again")
    ratings = {row["condition"]: float(row["mu"]) for row in csv.DictReader((folder / "ratings.csv").open())}
    assert abs(ratings["full"] - ratings["full_again"]) < 0.1
    judgements = [json.loads(line) for line in (folder / "judgements.jsonl").read_text().splitlines()]
    assert all(any({"full", "full_again"} <= set(group) for group in j["groups"]) for j in judgements)


@pytest.mark.slow
def test_bad_input_is_one_line_naming_the_option(run_folder, capsys):
    assert main(["evaluate", str(run_folder), "--conditions", "full,no_memory"]) == 1
    assert main(["evaluate", str(run_folder), "--at", "2023-02-15T00:00"]) == 1
    assert main(["evaluate", str(run_folder), "--agents", "Nobody Here"]) == 1
    assert main(["evaluate", str(run_folder), "--api-base", "http://127.0.0.1:9/v1"]) == 1  # nothing calls a server
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("error: --conditions: unknown condition 'no_memory'")
    assert lines[1].startswith("error: --at 2023-02-15T00:00:00: outside the run")
    assert lines[2].startswith("error: --agents: no agent named 'Nobody Here'")
    assert lines[3].startswith("error: --api-base http://127.0.0.1:9/v1: the run is offline")
    with pytest.raises(EvaluationError, match="--repeats 0"):
        evaluate_run(run_folder, repeats=0, at=datetime(2023, 2, 13, 5))


@pytest.mark.slow  # evaluates a simulated run
def test_an_evaluation_has_a_budget_of_its_own_and_goes_on_with_a_larger_one(run_folder, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(run_folder, run, ignore=shutil.ignore_patterns("evaluation"))
    smaller = ["evaluate", str(run), "--agents", "Isabella Rodriguez", "--conditions", "full,persona_only"]
    assert main([*smaller, "--repeats", "1", "--max-calls", "4"]) == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line == (
        "error: the budget of 4 model calls is spent; what was answered is kept: run the same command again (with "
        "a larger --max-calls/--max-cost) to continue"
    )
    kept = len((run / "evaluation" / "answers.jsonl").read_text().splitlines())
    assert 4 * 5 <= kept < 25 * 2  # 4 calls of a category's 5 questions each
    assert main([*smaller, "--repeats", "1", "--max-calls", "1000"]) == 0
    assert len(_keys(run / "evaluation" / "answers.jsonl")) == 25 * 2  # the 20 kept, the rest asked now
    judgements = [json.loads(line) for line in (run / "evaluation" / "judgements.jsonl").read_text().splitlines()]
    asked = [judgement for judgement in judgements if judgement["distinct"] > 1]  # identical answers: a draw, unasked
    assert len(judgements) == 25 and 0 < len(asked) < 25
    ledger = json.loads((run / "evaluation" / "ledger.json").read_text())
    categories = {judgement["question_id"].split(".")[0] for judgement in asked}  # a category's ranked at once
    assert len(categories) - ledger["reused"] <= ledger["requests_by_kind"]["ranks"] <= len(categories)
