"""`run.py resume` with new terms: a larger budget for a run its budget stopped, a later end for a finished run, the
new address of a model server that moved.

In each case the run goes on exactly as one simulated in one go with those terms, and its config.json keeps them, so
the next resume (or report) reads the run as it now is. Terms that could not continue the run are one line each, and
so is a model whose API key is not set (resume and interview check it as simulate does, before any call).
"""

import json
import shutil
from pathlib import Path

import pytest

from smallville.cli import main
from testing import LoopbackServer
from tests.smallville.fault_log import one_line
from tests.smallville.run_folders import FAST, events, final_state

pytestmark = pytest.mark.slow  # each test simulates a run and resumes it (the key check alone: test_check_model.py)
END = "2023-02-13T08:00"


def _simulate(out: Path, *extra: str) -> int:
    return main(["simulate", *FAST, "--until", END, "--out", str(out), *extra])


def _config(folder: Path) -> dict:
    return json.loads((folder / "config.json").read_text())


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The run simulated in one go, with no budget."""
    out = tmp_path_factory.mktemp("whole") / "run"
    assert _simulate(out) == 0
    return out


def test_a_run_its_budget_stopped_goes_on_exactly_with_a_larger_one(whole, tmp_path, capsys):
    out = tmp_path / "run"
    assert _simulate(out, "--max-calls", "20") == 2
    said = f"the budget of 20 model calls is spent; continue with a larger budget: run.py resume {out} --max-calls"
    assert said in capsys.readouterr().err

    assert main(["resume", str(out)]) == 2  # the same budget stops it again, and says how to raise it
    assert f"continue with a larger budget: run.py resume {out} --max-calls CALLS" in capsys.readouterr().err
    spent = json.loads((out / "ledger.json").read_text())["totals"]["calls"]
    line = one_line(capsys, ["resume", str(out), "--max-calls", str(spent)], 1)
    assert line == (
        f"error: --max-calls {spent}: the run has made {spent} model calls already; "
        "give more (the budget counts them all)"
    )
    assert _config(out)["max_calls"] == 20  # a refused term changes nothing

    assert main(["resume", str(out), "--max-calls", "100000"]) == 0
    assert _config(out)["max_calls"] == 100000
    assert events(out) == events(whole)
    assert final_state(out) == final_state(whole)


def test_a_finished_run_goes_on_to_a_later_end_as_one_simulated_to_it(whole, tmp_path, capsys):
    later = "2023-02-13T10:00"
    longer = tmp_path / "longer"
    assert main(["simulate", *FAST, "--until", later, "--out", str(longer)]) == 0
    out = tmp_path / "run"
    assert _simulate(out) == 0
    capsys.readouterr()

    line = one_line(capsys, ["resume", str(out), "--until", "2023-02-13T07:00"], 1)
    assert line == (
        "error: --until 2023-02-13T07:00: the run is at 2023-02-13T08:00 already; give a later end to continue it"
    )
    assert main(["resume", str(out), "--until", later]) == 0
    assert _config(out)["end"] == "2023-02-13T10:00:00"
    assert events(out) == events(longer)
    assert final_state(out) == final_state(longer)
    assert main(["resume", str(out)]) == 0  # at its new end: nothing more to do
    assert events(out) == events(longer)


def test_days_on_resume_count_from_the_start_as_simulate_counts_them(whole, tmp_path, capsys):
    out = tmp_path / "run"
    assert _simulate(out) == 0
    capsys.readouterr()
    one_line(capsys, ["resume", str(out), "--days", "0.25"], 1)  # 06:00: before the run's 08:00
    assert main(["resume", str(out), "--days", "0.375", "--max-calls", "5000"]) == 0
    config = _config(out)
    assert config["end"] == "2023-02-13T09:00:00" and config["max_calls"] == 5000


def test_a_budget_spent_while_the_town_loads_is_one_line_and_resumes_with_more(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["simulate", *FAST, "--until", "2023-02-13T01:00", "--out", str(out), "--max-calls", "1"]
    line = one_line(capsys, argv, 1, after_progress=True)
    assert line.startswith("error: stopped while loading the town: the budget of 1 model calls is spent")
    assert line.endswith(f"continue with a larger budget: run.py resume {out} --max-calls CALLS (in all)")
    line = one_line(capsys, ["resume", str(out)], 1, after_progress=True)
    assert "the budget of 1 model calls is spent" in line
    assert main(["resume", str(out), "--max-calls", "1000"]) == 0
    assert _config(out)["max_calls"] == 1000


def test_a_run_whose_model_needs_a_key_that_is_not_set_says_so_in_one_line(whole, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    shutil.copytree(whole, out)
    config = _config(out)
    (out / "config.json").write_text(json.dumps({**config, "llm": "openai/gpt-4o-mini"}))
    (out / ".config.written.json").unlink()  # as a folder of an older version: no copy to tell a hand edit from
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    expected = (
        f"error: {out}: model 'openai/gpt-4o-mini' needs OPENAI_API_KEY in the environment (never on the command line)"
    )
    assert one_line(capsys, ["resume", str(out), "--until", "2023-02-13T09:00"], 1) == expected
    assert one_line(capsys, ["interview", str(out), "Klaus Mueller", "How are you?"], 1) == expected
    assert _config(out)["end"] == config["end"]  # nothing was changed


def test_a_run_whose_server_moved_goes_on_at_its_new_address(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    town = ["simulate", *FAST, "--llm", "openai/loopback"]
    with LoopbackServer() as old, LoopbackServer() as new:
        whole, moved = tmp_path / "whole", tmp_path / "moved"
        assert main([*town, "--until", "2023-02-13T02:00", "--api-base", new.url, "--out", str(whole)]) == 0
        assert main([*town, "--until", "2023-02-13T01:00", "--api-base", old.url, "--out", str(moved)]) == 0
        old.stop()
        assert main(["resume", str(moved), "--until", "2023-02-13T02:00", "--api-base", new.url]) == 0
    assert _config(moved)["api_base"] == new.url
    assert events(moved) == events(whole)
