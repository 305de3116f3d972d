"""Every command that writes, killed at a random moment: what it leaves resumes exactly, or is refused in one line.

A moment is one of the command's writes (a file opened to write, a rename, a flush, a copy, a database opened),
drawn at random among those its uninterrupted run makes (tests/smallville/killing.py); batch, whose cells write in
worker processes, is killed at a random time of its run instead, workers and all. After the kill the user does what
the tool says: resume the run, or run the same command again; the result must equal the uninterrupted one's. The
fork's kills are in test_fork.py. SMALLVILLE_KILL_SEEDS sets how many moments per command (1 in the suite).
"""

import os
import random
import shutil
from pathlib import Path

import pytest

from smallville.cli import main
from tests.smallville.killing import log_outcome, run_killed, writes_of
from tests.smallville.run_folders import FAST, events, final_state, metrics

pytestmark = pytest.mark.slow

SEEDS = range(int(os.environ.get("SMALLVILLE_KILL_SEEDS", "1")))
BASE = [*FAST, "--until", "2023-02-13T00:30", "--checkpoint-minutes", "10"]
LATER = ["--until", "2023-02-13T00:40"]
KLAUS = "Klaus Mueller"
SHELF = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
CHANGES = {"whisper": ["whisper", KLAUS, "The library closes early on Friday"], "set": ["set", SHELF, "on fire"]}


@pytest.fixture(scope="module")
def refs(tmp_path_factory) -> dict:
    """The uninterrupted runs and outputs, and how many writes each command made."""
    root = tmp_path_factory.mktemp("kills")
    refs = {"root": root, "writes": {}}
    refs["writes"]["simulate"] = writes_of(["simulate", *BASE, "--out", str(root / "base")])
    shutil.copytree(root / "base", root / "plain")
    refs["writes"]["resume"] = writes_of(["resume", str(root / "plain"), *LATER])
    for name, change in CHANGES.items():
        shutil.copytree(root / "base", root / name)
        refs["writes"][name] = writes_of([change[0], str(root / name), *change[1:]])
        assert main(["resume", str(root / name), *LATER]) == 0
    refs["writes"]["report"] = writes_of(["report", str(root / "plain")])
    out = root / "compared"
    refs["writes"]["compare"] = writes_of(["compare", str(root / "base"), str(root / "plain"), "--out", str(out)])
    return refs


def _moment(command: str, seed: int, writes: int) -> int:
    return random.Random(f"{command}-{seed}").randint(1, writes)


def _same_run(folder: Path, whole: Path) -> None:
    assert events(folder) == events(whole)
    assert final_state(folder) == final_state(whole)
    assert metrics(folder) == metrics(whole)


def _report(command: str, at: int, writes: int, killed: bool, outcome: str) -> None:
    log_outcome(
        f"{command}: killed at write {at} of {writes}: {outcome}" if killed else f"{command}: ended before {at}"
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_simulate_killed_resumes_to_the_same_end(refs, tmp_path, seed):
    writes, out = refs["writes"]["simulate"], tmp_path / "run"
    at = _moment("simulate", seed, writes)
    killed = run_killed(["simulate", *BASE, "--out", str(out)], at_write=at)
    if (out / "config.json").is_file():
        assert main(["resume", str(out)]) == 0
    else:  # killed before the run existed: the same command again
        assert main(["simulate", *BASE, "--out", str(out)]) == 0
    _same_run(out, refs["root"] / "base")
    _report("simulate", at, writes, killed, "exact")


@pytest.mark.parametrize("seed", SEEDS)
def test_resume_killed_resumes_to_the_same_end(refs, tmp_path, seed):
    writes, out = refs["writes"]["resume"], tmp_path / "run"
    shutil.copytree(refs["root"] / "base", out)
    at = _moment("resume", seed, writes)
    killed = run_killed(["resume", str(out), *LATER], at_write=at)
    assert main(["resume", str(out), *LATER]) == 0
    _same_run(out, refs["root"] / "plain")
    _report("resume", at, writes, killed, "exact")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("command", list(CHANGES))
def test_a_change_killed_is_all_in_or_all_out(refs, tmp_path, command, seed):
    """A whisper or a set killed: the run resumes as if it had been made, or as if not (then it is made again)."""
    writes, out = refs["writes"][command], tmp_path / "run"
    shutil.copytree(refs["root"] / "base", out)
    at = _moment(command, seed, writes)
    change = CHANGES[command]
    killed = run_killed([change[0], str(out), *change[1:]], at_write=at)
    saved = out / "checkpoint" / "state.json"
    made = change[-1] in saved.read_text()  # the checkpoint holds the intervention, or it does not
    if not made:
        assert main([change[0], str(out), *change[1:]]) == 0
    assert main(["resume", str(out), *LATER]) == 0
    _same_run(out, refs["root"] / command)
    _report(command, at, writes, killed, "exact (" + ("it was in" if made else "made again") + ")")


@pytest.mark.parametrize("seed", SEEDS)
def test_report_killed_writes_the_same_report_again_and_leaves_the_run(refs, tmp_path, seed):
    writes, out = refs["writes"]["report"], tmp_path / "run"
    shutil.copytree(refs["root"] / "base", out)
    assert main(["resume", str(out), *LATER]) == 0
    at = _moment("report", seed, writes)
    killed = run_killed(["report", str(out)], at_write=at)
    assert main(["report", str(out)]) == 0
    assert (out / "report" / "summary.md").read_text() == (refs["root"] / "plain" / "report" / "summary.md").read_text()
    _same_run(out, refs["root"] / "plain")
    _report("report", at, writes, killed, "exact")


@pytest.mark.parametrize("seed", SEEDS)
def test_compare_killed_writes_the_same_comparison_again(refs, tmp_path, seed):
    writes, out = refs["writes"]["compare"], tmp_path / "compared"
    base, plain = refs["root"] / "base", refs["root"] / "plain"
    at = _moment("compare", seed, writes)
    argv = ["compare", str(base), str(plain), "--out", str(out)]
    killed = run_killed(argv, at_write=at)
    assert main(argv) == 0
    assert (out / "summary.md").read_text() == (refs["root"] / "compared" / "summary.md").read_text()
    _report("compare", at, writes, killed, "exact")


EVALUATE = ["--conditions", "full,persona_only", "--repeats", "1"]


@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_killed_resumes_to_the_same_measures(refs, tmp_path, seed):
    whole, out = tmp_path / "whole", tmp_path / "run"
    shutil.copytree(refs["root"] / "base", whole)
    shutil.copytree(refs["root"] / "base", out)
    writes = writes_of(["evaluate", str(whole), *EVALUATE])
    at = _moment("evaluate", seed, writes)
    killed = run_killed(["evaluate", str(out), *EVALUATE], at_write=at)
    assert main(["evaluate", str(out), *EVALUATE]) == 0
    for name in ("measures.json", "ratings.csv", "answers.jsonl"):
        assert (out / "evaluation" / name).read_text() == (whole / "evaluation" / name).read_text(), name
    _same_run(out, whole)
    _report("evaluate", at, writes, killed, "exact")


# One cell that is the module's base run (seed 0 is the default): the uninterrupted cell is that run.
BATCH = ["batch", "--conditions", "full", "--seeds", "0", "--scenario", "the_ville_n3", "--embedder", "hashing",
         "--until", "2023-02-13T00:30", "--checkpoint-minutes", "10", "--workers", "1"]  # fmt: skip


@pytest.mark.parametrize("seed", SEEDS)
def test_batch_killed_with_its_workers_resumes_to_the_same_cell(refs, tmp_path, seed):
    out = tmp_path / "batch"
    delay = random.Random(f"batch-{seed}").uniform(0, 8)  # a batch of one cell takes ~4-8 s (a worker starts)
    killed = run_killed([*BATCH, "--out", str(out)], after_s=delay)
    assert main([*BATCH, "--out", str(out)]) == 0
    _same_run(out / "cells" / "full--the_ville_n3--seed0", refs["root"] / "base")
    log_outcome(f"batch: killed {delay:.1f} s after it started: exact" if killed else "batch: ended first")
