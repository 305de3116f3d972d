"""A timeline of interventions is applied at the same simulated times after a kill and a resume as in one go."""

import json
import signal

import pytest

from smallville.cli import main
from tests.smallville.processes import reached, run, start, wait_for
from tests.smallville.run_folders import FAST, events, final_state, metrics

TIMELINE = """
[[interventions]]
time = 2023-02-13T00:20:00
kind = "whisper"
target = ["Klaus Mueller", "Maria Lopez"]
text = "The library closes early on Friday"

[[interventions]]
time = 2023-02-13T01:00:00
kind = "object"
target = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
text = "on fire"

[[interventions]]
time = 2023-02-13T01:30:00
kind = "broadcast"
text = "The town hall is closed tomorrow"
"""


@pytest.mark.slow
def test_a_timeline_killed_mid_run_and_resumed_ends_as_the_run_in_one_go(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(TIMELINE)
    args = [*FAST, "--until", "2023-02-13T02:00", "--checkpoint-minutes", "15", "--interventions", str(plan)]
    whole = tmp_path / "whole"
    assert main(["simulate", *args, "--out", str(whole)]) == 0
    applied = [entry for entry in events(whole) if entry[2] == "intervention"]
    assert [entry[0] for entry in applied] == ["2023-02-13T00:20:00"] * 2 + [
        "2023-02-13T01:00:00",
        "2023-02-13T01:30:00",
    ]

    out = tmp_path / "killed"
    process = start("simulate", *args, "--out", str(out))
    state = out / "checkpoint" / "state.json"
    wait_for(lambda: reached(state, "2023-02-13T00:45") or process.poll() is not None)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    stopped = json.loads(state.read_text())
    assert "2023-02-13T00:20" < stopped["now"] < "2023-02-13T02:00"  # between two interventions' times
    assert stopped["model"]["interventions"]["applied"] < 4
    plan.unlink()  # the run holds its timeline: the file is not needed again
    result = run("resume", str(out))
    assert result.returncode == 0, result.stderr[-2000:]
    assert events(out) == events(whole)
    assert final_state(out) == final_state(whole)
    assert metrics(out) == metrics(whole)
