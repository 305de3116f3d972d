"""The command line end to end: a run folder, report, interview, whisper, kill and resume, and bad input."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smallville.cli import main
from tests.smallville.run_folders import FAST, events, final_state

ROOT = Path(__file__).resolve().parents[2]


def run(*args, check=True, timeout=300):
    result = subprocess.run(
        [sys.executable, "run.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and result.returncode != 0:
        raise AssertionError(result.stderr[-3000:])
    return result


@pytest.mark.slow
def test_simulate_writes_every_artifact_and_report_and_interview_work(tmp_path):
    out = tmp_path / "run"
    result = run("simulate", *FAST, "--until", "2023-02-13T10:00", "--out", str(out))
    assert "Model calls (offline), 3 agents" in result.stdout and "relationship density" in result.stdout
    for name in ("config.json", "events.sqlite", "memory.sqlite", "ledger.json", "checkpoint/state.json"):
        assert (out / name).is_file(), name
    assert list((out / "graphs").glob("*.graphml"))
    assert (out / "metrics" / "model.csv").read_text().count("\n") > 10
    assert {kind for _, _, kind, _ in events(out)} >= {"action"}
    run("report", str(out))
    for png in ("density.png", "diffusion.png", "relationships.png"):
        image = (out / "report" / png).read_bytes()
        assert image.startswith(b"\x89PNG") and len(image) > 5000
    summary = (out / "report" / "summary.md").read_text()
    assert (
        "aware of `party`" in summary
        and "- thinking: overlapping: a thought that asks a model takes effect 20 steps after" in summary
    )
    # A gathering the run never reached has no figure; the reflections' count says what it counts; new ties are named.
    assert "at the gathering's place (Valentine's Day party, Feb 14 17:00-19:00): not reached" in summary
    assert "agents\n" not in summary.split("gathering's place")[1].split("\n")[0]
    assert "an agent reflects when the importance of its memories" in summary and "- new ties (estimate): " in summary
    elsewhere = tmp_path / "reports" / "morning"
    assert main(["report", str(out), "--out", str(elsewhere)]) == 0
    assert (elsewhere / "summary.md").read_text() == summary and (elsewhere / "relationships.png").is_file()
    answer = run("interview", str(out), "isabella  rodriguez", "Are you planning a party?").stdout  # any case
    assert answer.startswith("Isabella Rodriguez:") and "party" in answer
    before = (out / "memory.sqlite").read_bytes()
    run("interview", str(out), "--all", "What are you doing today?")
    assert (out / "memory.sqlite").read_bytes() == before  # not remembered unless asked
    run("whisper", str(out), "Klaus Mueller", "You are going to run for mayor")
    assert "run for mayor" in run("interview", str(out), "Klaus Mueller", "Who will run for mayor?").stdout


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_end_as_an_uninterrupted_one(tmp_path):
    args = [*FAST, "--until", "2023-02-13T09:00", "--checkpoint-minutes", "15"]
    whole = tmp_path / "whole"
    run("simulate", *args, "--out", str(whole))
    killed = tmp_path / "killed"
    process = subprocess.Popen(
        [sys.executable, "run.py", "simulate", *args, "--out", str(killed)], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    checkpoint = killed / "checkpoint" / "state.json"
    deadline = time.time() + 120
    while time.time() < deadline and not (checkpoint.is_file() and '"now": "2023-02-13T0' in checkpoint.read_text()):
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert checkpoint.is_file()
    assert json.loads(checkpoint.read_text())["now"] < "2023-02-13T09:00:00"
    resumed = run("resume", str(killed)).stdout
    assert final_state(killed) == final_state(whole)
    assert events(killed) == events(whole)
    # The summary's "from -> to" figures are the run's own, from its first minute, as the uninterrupted run says.
    whole_summary = run("report", str(whole)).stdout
    density = next(line for line in whole_summary.splitlines() if line.startswith("- relationship density"))
    start, end = density.split(": ")[1].split(" (")[0].split(" -> ")
    assert re.search(rf"relationship density \(estimate\)\s+│ {start} -> {end}", resumed), resumed
    assert "baseline that tests code, not minds" in resumed and "baseline that tests code, not minds" in whole_summary


@pytest.mark.slow  # each case starts a process (~7 s)
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--scenario", "the_ville_n99"], "no such scenario"),
        (["simulate", "--scenario", "the_ville_n3", "--agents", "Klaus Muller"], "no agent named 'Klaus Muller'"),
        (["simulate", "--llm", "gpt4"], "use 'offline' or a litellm name"),
        (["simulate", "--llm", "anthropic/claude-haiku-4-5"], "needs ANTHROPIC_API_KEY"),
        (["report", "/nonexistent/run"], "not a run folder"),
        (["interview", "/nonexistent/run", "Klaus Mueller", "hi"], "not a run folder"),
        (["interview", "/nonexistent/run", "Isabella Rodriguez"], "give an agent and a question, e.g."),
        (["serve", "/nonexistent/run"], "not a run folder"),
        (["serve", "--scenario", "the_ville_n3", "--agents", "9"], "asked for 9 agents"),
        (["serve", "--llm", "gpt4"], "use 'offline' or a litellm name"),
    ],
    ids=[
        "bad-scenario",
        "bad-agent",
        "bad-model",
        "missing-key",
        "report-no-run",
        "interview-no-run",
        "interview-no-question",
        "serve-no-run",
        "serve-too-many-agents",
        "serve-bad-model",
    ],
)
def test_bad_input_gives_one_line_and_a_nonzero_exit(args, message, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = run(*args, check=False, timeout=120)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow  # starts a process
def test_an_existing_run_folder_is_refused(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "config.json").write_text("{}")
    result = run("simulate", *FAST, "--out", str(tmp_path / "old"), check=False)
    assert result.returncode == 1 and "already exists" in result.stderr


@pytest.mark.slow  # six processes
def test_help_explains_every_command():
    for command in ("simulate", "resume", "interview", "whisper", "report", "serve"):
        assert "usage: run.py " + command in run(command, "--help").stdout


@pytest.mark.slow  # starts a process
def test_resuming_with_another_embedder_is_refused(tmp_path):
    out = tmp_path / "run"
    run("simulate", *FAST, "--until", "2023-02-13T01:00", "--out", str(out))
    config = json.loads((out / "config.json").read_text())
    config["embedder"] = "minilm"
    (out / "config.json").write_text(json.dumps(config))
    (out / ".config.written.json").unlink()  # as an older folder: the memory store's own record refuses it
    (out / "memory.sqlite-wal").unlink(missing_ok=True)
    result = run("resume", str(out), check=False)
    assert result.returncode == 1 and "embedded with hashing" in result.stderr


@pytest.mark.parametrize(
    ("host", "only_here"),
    [("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("::1", True), ("0.0.0.0", False),
     ("::", False), ("192.168.1.5", False), ("myhost", False)],
)  # fmt: skip
def test_serve_knows_which_hosts_stay_on_this_machine(host, only_here):
    from smallville.commands.serve import loopback

    assert loopback(host) is only_here
