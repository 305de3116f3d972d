"""`run.py compare`: where two runs part and what differs, checked against forks whose difference is known."""

from pathlib import Path

import pytest

from smallville.cli import main
from smallville.runs.compare import compare_runs, read_run
from smallville.scenarios.scenario import load_scenario
from tests.smallville.run_folders import FAST

pytestmark = pytest.mark.slow  # every test compares runs simulated and forked once for the module
ARGS = [*FAST, "--until", "2023-02-13T09:30", "--seconds-per-step", "30", "--keep-checkpoints", "every 1h"]
AT = "2023-02-13T08:00"
PARTY = "Isabella Rodriguez is throwing a Valentine's Day party at Hobbs Cafe tomorrow evening"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path, Path]:
    """A morning, its fork with no change, and its fork where Klaus is told of the party at 08:00."""
    root = tmp_path_factory.mktemp("compare")
    source, same, told = root / "source", root / "same", root / "told"
    assert main(["simulate", *ARGS, "--out", str(source)]) == 0
    assert main(["fork", str(source), "--at", AT, "--out", str(same)]) == 0
    assert main(["fork", str(source), "--at", AT, "--out", str(told), "--whisper", "Klaus Mueller", PARTY]) == 0
    return source, same, told


def test_a_run_and_its_unchanged_fork_never_differ(runs, capsys, tmp_path):
    source, same, _ = runs
    assert main(["compare", str(source), str(same), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "no difference while both ran" in out
    comparison = compare_runs(read_run(source), read_run(same))
    assert comparison.first_difference is None
    assert all(a == b for a, b in comparison.figures.values())


def test_a_whispered_fact_shows_as_the_first_difference_and_as_who_knows_it(runs, capsys, tmp_path):
    source, _, told = runs
    assert load_scenario("the_ville_n3").facts[0].matches(PARTY)  # the whisper states the tracked fact
    assert main(["compare", str(source), str(told), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"first difference at {AT}:00" in out
    assert f"B: {AT}:00 Klaus Mueller intervention: {PARTY}" in out
    assert "knows party: A 1, B 2 (only in A: none; only in B: Klaus Mueller)" in out
    comparison = compare_runs(read_run(source), read_run(told))
    assert comparison.figures["aware_party"] == pytest.approx((1 / 3, 2 / 3))
    assert comparison.figures["model_calls"][1] > comparison.figures["model_calls"][0]  # the whisper's rating
    assert (tmp_path / "timelines.png").stat().st_size > 10_000
    assert "| aware_party | 0.333 | 0.667 | +0.333 |" in (tmp_path / "summary.md").read_text()


def test_compare_of_a_folder_that_is_no_run_is_one_line(runs, capsys, tmp_path):
    assert main(["compare", str(runs[0]), str(tmp_path)]) == 1
    assert "not a run folder" in capsys.readouterr().err
