"""The fault campaign, a model server killed mid-run: the run stops in one line and resumes exactly.

The server is killed after a given number of answers, at five moments of a night and a morning of the 3-agent town
(while agents plan their day, in a talk, just after a checkpoint, with thoughts in flight). The run stops with one
line, keeps its last checkpoint and the answers received since, and `resume --api-base` at a new server must end
exactly where a run that never lost its model ends: the same events at the same times, the same metrics, the same
final checkpoint and the same model calls (their latency and the server's prompt cache aside: a new server has not
cached the prompts the old one saw). The metrics' running count of calls, tokens and cost is left out: it counts the
answers received by each row's wall-clock moment, and a replayed answer arrives at once.
"""

import csv
import io
import json
from pathlib import Path

import pytest

from smallville.cli import main
from testing import DyingServer, LoopbackServer
from tests.smallville.fault_log import record as record_refusal
from tests.smallville.run_folders import FAST, events, final_state, metrics

TOWN = ["simulate", *FAST, "--llm", "openai/loopback", "--until", "2023-02-13T09:00", "--checkpoint-minutes", "60"]
# Answers before the server dies: the town's loading asks 3 (the seeded memories' importance), the whole run 37.
MOMENTS = (5, 15, 20, 27, 33)


# The metrics' columns that meter the model calls answered so far, in wall-clock time (see the docstring).
METERS = ("model_calls", "tokens", "cost")


def town_metrics(folder: Path) -> list[list[dict]]:
    """The metrics CSVs' rows, without the meters of model calls."""
    tables = [list(csv.DictReader(io.StringIO(text))) for text in metrics(folder)]
    return [[{k: v for k, v in row.items() if k not in METERS} for row in table] for table in tables]


def comparable(folder: Path) -> dict:
    """The final checkpoint (`final_state`) without what differs between two servers: their prompt caches."""
    state = final_state(folder)
    for record in state["covered_calls"]:
        record.pop("cached_tokens")
    state["covered_calls"] = sorted(state["covered_calls"], key=lambda record: json.dumps(record, sort_keys=True))
    return state


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The run whose model never died."""
    out = tmp_path_factory.mktemp("whole") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", "sk-test-loopback")
        with LoopbackServer() as server:
            assert main([*TOWN, "--api-base", server.url, "--out", str(out)]) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize("answers", MOMENTS)
def test_a_run_whose_model_dies_resumes_exactly_at_a_new_server(quick_faults, whole, tmp_path, capsys, answers):
    out = tmp_path / "run"
    with DyingServer(answers) as dying:
        code = main([*TOWN, "--api-base", dying.url, "--out", str(out)])
    err = capsys.readouterr().err
    record_refusal([*TOWN, "--api-base", dying.url, "--out", str(out)], code, err)
    assert code == 2, err[-3000:]
    stops = [line for line in err.splitlines() if line.startswith("stopped: ")]
    assert len(stops) == 1 and "Traceback" not in err, err[-3000:]
    assert "could not reach its server" in stops[0]
    assert stops[0].endswith(f"when the model answers again: run.py resume {out}")
    kept = json.loads((out / "checkpoint" / "state.json").read_text())["now"][:16].replace("T", " ")
    assert f"kept: its checkpoint of {kept} and the " in stops[0]
    with LoopbackServer() as server:
        assert main(["resume", str(out), "--api-base", server.url]) == 0
    assert events(out) == events(whole)
    assert town_metrics(out) == town_metrics(whole)
    assert comparable(out) == comparable(whole)


@pytest.mark.slow  # waits out the timeouts: 4 tries of 1 s and the backoff between them (3.5 s)
def test_a_stalled_server_ends_the_run_in_one_line_within_its_stated_bound(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    out = tmp_path / "run"
    with LoopbackServer(faults=["hang"] * 50, hang_s=60) as stalled:  # accepts every call, answers none
        code = main([*TOWN, "--api-base", stalled.url, "--timeout", "1", "--out", str(out)])
    err = capsys.readouterr().err
    record_refusal([*TOWN, "--api-base", stalled.url, "--timeout", "1", "--out", str(out)], code, err)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and "Traceback" not in err, err[-3000:]
    assert len(errors) == 1 and "failed 4 times on importance" in errors[0], errors
    assert errors[0].endswith(f"when the model answers again: run.py resume {out}")
