"""`run.py compare RUN`: a run a player joined beside the same run replayed without the player."""

import shutil
from pathlib import Path

import pytest

from smallville.cli import main
from tests.smallville.run_folders import FAST, events, final_state, metrics

pytestmark = pytest.mark.slow  # simulates a morning, joins it, and replays it without the player
JOIN_AT = "2023-02-13T08:30"
END = "2023-02-13T08:45"
PLAYER = "Alex Park"
ISABELLA = "Isabella Rodriguez"
NEWS = "The bakery on Main Street closes on Friday"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """A morning (no checkpoint kept) resumed to END as it is, and a copy a player joined at 08:30, resumed too."""
    root = tmp_path_factory.mktemp("compare_player")
    alone, joined = root / "alone", root / "joined"
    assert main(["simulate", *FAST, "--seconds-per-step", "30", "--until", JOIN_AT, "--out", str(alone)]) == 0
    shutil.copytree(alone, joined)
    argv = ["join", str(joined), "--as", PLAYER, "--persona", "a reporter", "--at", "Hobbs Cafe",
            "--say", ISABELLA, NEWS, "--stay", "5"]  # fmt: skip
    assert main(argv) == 0
    for run in (alone, joined):
        assert main(["resume", str(run), "--until", END]) == 0
    return alone, joined


def test_without_the_player_the_run_is_the_run_that_never_had_one(runs, capsys):
    alone, joined = runs
    capsys.readouterr()
    assert main(["compare", str(joined)]) == 0
    printed = capsys.readouterr().out
    without = joined.parent / "joined-without-alex-park"
    assert events(without) == events(alone)  # the same seed, replayed exactly: as if the player never came
    assert final_state(without)["model"] == final_state(alone)["model"]
    assert metrics(without) == metrics(alone)

    assert f"A = {joined} with {PLAYER}" in printed and f"B = {without} without {PLAYER}" in printed
    assert f"08:30:00 {PLAYER}: {NEWS}" in printed  # the visit, as the run logged it
    assert f"08:30:00 {ISABELLA} (to {PLAYER}): " in printed
    assert f"the runs part at {JOIN_AT}:00: A: {JOIN_AT}:00 {PLAYER} intervention: joins the town" in printed
    assert f"the town itself first differs at {JOIN_AT}:00" in printed
    assert f"  only in A: {JOIN_AT}:00 {ISABELLA} line: " in printed  # her answer is the town's first change
    remembered = next(line for line in printed.splitlines() if line.startswith(f"  {ISABELLA}: ") and " / " in line)
    assert remembered.split(";")[0].endswith(" / 0") and not remembered.startswith(f"  {ISABELLA}: 0 /")
    assert f'news "{NEWS}" is in the memories of (estimate by its words): A {ISABELLA}; B nobody' in printed
    assert f"talked only in A: {PLAYER} & {ISABELLA}; only in B: none" in printed
    assert (joined / "compare" / "joined-without-alex-park" / "timelines.png").is_file()

    assert main(["compare", str(joined), "--without-player", "alex park"]) == 0  # the run has not changed: reused
    assert "made before; the run has not changed since" in capsys.readouterr().err


def test_bad_inputs_are_one_line_each(runs, tmp_path, capsys):
    alone, joined = runs
    no_kept = tmp_path / "no_kept"
    shutil.copytree(joined, no_kept, ignore=shutil.ignore_patterns("kept"))
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    cases = [
        (["compare", str(alone)], "no player joined this run"),
        (["compare", str(joined), "--without-player", "Lin Wu"], "no such player"),
        (["compare", str(no_kept)], f"no checkpoint kept from before {PLAYER} joined (2023-02-13 08:30)"),
        (["compare", str(joined), str(alone), "--without-player"], "give another run B, or --without-player"),
        (["compare", str(joined), "--baseline", str(tmp_path / "taken")], "is not a run without Alex Park"),
    ]
    for argv, message in cases:
        capsys.readouterr()
        assert main(argv) != 0, argv
        error = capsys.readouterr().err.strip()
        assert message in error and len(error.splitlines()) == 1, error
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"  # never removes what it did not make
    assert not (tmp_path / "no_kept-without-alex-park").exists()
