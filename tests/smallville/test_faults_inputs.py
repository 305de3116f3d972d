"""The fault campaign, bad inputs: every mistake a user can make at the door is one line and a non-zero exit.

Each case runs `smallville.cli.main` in-process (no model is built for any of them) and asserts the exit code (2 for
a flag argparse refuses, 1 for a mistake found once the scenario or the folder is read) and the one line's words.
"""

import argparse
import json
import os
import socket
import subprocess
from pathlib import Path

import pytest

from smallville.cli import main
from smallville.scenarios.scenario import SCENARIOS_DIR
from smallville.settings import option_types
from smallville.settings.option_types import MAX_STATEMENT_CHARS
from smallville.settings.paths import check_outside
from tests.smallville.fault_log import one_line
from tests.smallville.run_folders import FAST

# (arguments, exit code, words the line must hold)
FLAG_CASES = {
    "days-negative": (["simulate", *FAST, "--days", "-1"], 2, "give more than 0"),
    "days-zero": (["simulate", *FAST, "--days", "0"], 2, "give more than 0"),
    "days-huge": (["simulate", *FAST, "--days", "1e9"], 2, "at most 365"),
    "days-text": (["simulate", *FAST, "--days", "two"], 2, "'two' is not a number"),
    "days-nan": (["simulate", *FAST, "--days", "nan"], 2, "not a finite number"),
    "days-inf": (["simulate", *FAST, "--days", "inf"], 2, "not a finite number"),
    "days-and-until": (["simulate", *FAST, "--days", "1", "--until", "2023-02-14T00:00"], 2, "not allowed with"),
    "until-garbage": (["simulate", *FAST, "--until", "tomorrow"], 2, "is not a date and time"),
    "until-before-start": (["simulate", *FAST, "--until", "2023-02-12T09:00"], 1, "not after the scenario's start"),
    "until-at-start": (["simulate", *FAST, "--until", "2023-02-13T00:00"], 1, "not after the scenario's start"),
    "until-centuries-away": (["simulate", *FAST, "--until", "2923-02-13T00:00"], 1, "more than 365 days after"),
    "seconds-per-step-zero": (["simulate", *FAST, "--seconds-per-step", "0"], 2, "out of range"),
    "seconds-per-step-negative": (["simulate", *FAST, "--seconds-per-step", "-5"], 2, "out of range"),
    "seconds-per-step-huge": (["simulate", *FAST, "--seconds-per-step", "99999"], 2, "from 1 to 3600"),
    "seconds-per-step-fraction": (["simulate", *FAST, "--seconds-per-step", "1.5"], 2, "not a whole number"),
    "checkpoint-minutes-negative": (["simulate", *FAST, "--checkpoint-minutes", "-5"], 2, "give more than 0"),
    "checkpoint-minutes-zero": (["simulate", *FAST, "--checkpoint-minutes", "0"], 2, "give more than 0"),
    "checkpoint-minutes-nan": (["simulate", *FAST, "--checkpoint-minutes", "nan"], 2, "not a finite number"),
    "max-calls-zero": (["simulate", *FAST, "--max-calls", "0"], 2, "from 1 to 1000000000"),
    "max-calls-negative": (["simulate", *FAST, "--max-calls", "-3"], 2, "from 1 to 1000000000"),
    "max-calls-text": (["simulate", *FAST, "--max-calls", "many"], 2, "not a whole number"),
    "max-cost-zero": (["simulate", *FAST, "--max-cost", "0"], 2, "more than 0 dollars"),
    "max-cost-negative": (["simulate", *FAST, "--max-cost", "-2"], 2, "more than 0 dollars"),
    "max-in-flight-zero": (["simulate", *FAST, "--max-in-flight", "0"], 2, "out of range"),
    "seed-negative": (["simulate", *FAST, "--seed", "-1"], 2, "out of range"),
    "seed-text": (["simulate", *FAST, "--seed", "abc"], 2, "not a whole number"),
    "agents-comma": (["simulate", *FAST, "--agents", ","], 2, "names no agent"),
    "agents-blank": (["simulate", *FAST, "--agents", "  "], 2, "names no agent"),
    "agents-zero": (["simulate", *FAST, "--agents", "0"], 2, "out of range"),
    "agents-negative": (["simulate", *FAST, "--agents", "-3"], 2, "out of range"),
    "agents-twice": (["simulate", *FAST, "--agents", "Klaus Mueller,Klaus Mueller"], 2, "named twice"),
    "agents-too-many": (["simulate", *FAST, "--agents", "99"], 1, "asked for 99 agents"),
    "agents-unknown": (["simulate", *FAST, "--agents", "Klaus Muller"], 1, "no agent named 'Klaus Muller'"),
    "route-unknown-kind": (["simulate", *FAST, "--route", "gossip=openai/x"], 2, "no request kind 'gossip'"),
    "route-no-model": (["simulate", *FAST, "--route", "importance"], 2, "is not kind=model"),
    "route-empty-kind": (["simulate", *FAST, "--route", "=openai/x"], 2, "is not kind=model"),
    "route-empty-model": (["simulate", *FAST, "--route", "importance="], 2, "is not kind=model"),
    "route-bad-model": (["simulate", *FAST, "--route", "importance=gpt4"], 1, "use 'offline' or a litellm name"),
    "weights-two": (["simulate", *FAST, "--retrieval-weights", "1,2"], 2, "three numbers"),
    "weights-negative": (["simulate", *FAST, "--retrieval-weights=-1,1,1"], 2, "three numbers >= 0"),
    "weights-zero": (["simulate", *FAST, "--retrieval-weights", "0,0,0"], 2, "not all 0"),
    "reflection-threshold-zero": (["simulate", *FAST, "--reflection-threshold", "0"], 2, "from 1 to 100000"),
    "fallback-share-above-one": (["simulate", *FAST, "--max-fallback-share", "2"], 2, "from 0 to 1"),
    "unknown-flag": (["simulate", *FAST, "--dayz", "2"], 2, "unrecognized arguments: --dayz"),
    "unknown-command": (["simulat"], 2, "invalid choice: 'simulat'"),
    "model-name": (["simulate", *FAST, "--llm", "gpt4"], 1, "use 'offline' or a litellm name"),
    "scenario-missing": (["simulate", "--scenario", "the_ville_n99"], 1, "no such scenario"),
    "cache-folder": (["simulate", *FAST, "--cache", "/tmp"], 2, "is a folder"),
    "cache-no-folder": (["simulate", *FAST, "--cache", "/nonexistent/c.sqlite"], 2, "does not exist"),
    "serve-port-zero": (["serve", "--port", "0"], 2, "from 1 to 65535"),
    "serve-port-huge": (["serve", "--port", "70000"], 2, "from 1 to 65535"),
    "serve-max-in-flight": (["serve", "--max-in-flight", "0"], 2, "out of range"),
    "serve-too-many-agents": (["serve", *FAST, "--agents", "9"], 1, "asked for 9 agents"),
    "serve-host-unknown": (["serve", *FAST, "--host", "nowhere.invalid"], 1, "not a name or address this machine"),
    "serve-host-not-ours": (["serve", *FAST, "--host", "192.0.2.1"], 1, "cannot listen there"),
    "whisper-empty": (["whisper", "runs/x", "Klaus Mueller", ""], 2, "the statement is empty"),
    "whisper-blank": (["whisper", "runs/x", "Klaus Mueller", "   \n "], 2, "the statement is empty"),
    "whisper-100kb": (["whisper", "runs/x", "Klaus Mueller", "a" * 100_000], 2, f"more than {MAX_STATEMENT_CHARS}"),
    "whisper-not-utf8": (["whisper", "runs/x", "Klaus Mueller", "caf\udce9"], 2, "not valid UTF-8"),
    "whisper-nul": (["whisper", "runs/x", "Klaus Mueller", "run\x00for mayor"], 2, "control characters"),
    "whisper-no-run": (["whisper", "/nonexistent/run", "Klaus Mueller", "hi"], 1, "not a run folder"),
    "interview-empty": (["interview", "runs/x", "Klaus Mueller", ""], 2, "the question is empty"),
    "interview-long": (["interview", "runs/x", "Klaus Mueller", "why? " * 1000], 2, "more than"),
    "interview-not-utf8": (["interview", "runs/x", "Klaus Mueller", "\udcff?"], 2, "not valid UTF-8"),
    "interview-no-agent": (["interview", "runs/x", "What now?"], 1, "give an agent and a question, e.g."),
    "interview-no-run": (["interview", "/nonexistent/run", "Klaus Mueller", "hi"], 1, "not a run folder"),
    # The folder is read first: a model given with --llm is checked with the run's server (or --api-base).
    "interview-bad-llm": (["interview", "/nonexistent/run", "Klaus", "hi", "--llm", "gpt4"], 1, "not a run folder"),
    "report-no-run": (["report", "/nonexistent/run"], 1, "not a run folder"),
    "run-name-too-long": (["interview", "x" * 300, "Klaus Mueller", "hi?"], 2, "longer than the file system takes"),
    "scenario-name-too-long": (["simulate", "--scenario", "s" * 300], 2, "longer than the file system takes"),
    "compare-name-too-long": (["compare", "a", "b" * 300], 2, "argument B: bbbb"),
    "models-effort-unknown": (["models", "check", "--llm", "offline", "--reasoning-effort", "x"], 2, "give one of"),
    "folder-with-a-line-break": (["evaluate", "line\nbreak"], 1, "error: line\\nbreak: not a run folder"),
    # One schema (settings/ranges.py): sizes bounded above, settings the model would refuse later, unreachable times.
    "collect-every-huge": (["simulate", *FAST, "--collect-every", "1000000000000"], 2, "from 1 to 8640"),
    "plan-importance-off-scale": (["simulate", *FAST, "--plan-importance", "11"], 2, "from 1 to 10"),
    "statements-huge": (["simulate", *FAST, "--reflection-statements", "100000"], 2, "from 1 to 1000"),
    "max-calls-huge": (["simulate", *FAST, "--max-calls", "99999999999"], 2, "from 1 to 1000000000"),
    "max-cost-huge": (["simulate", *FAST, "--max-cost", "1e12"], 2, "at most 1e+06"),
    "shortest-wait-over-longest": (
        ["simulate", *FAST, "--shortest-wait-minutes", "100"],
        1,
        "--shortest-wait-minutes: 100 minutes: more than --longest-wait-minutes (30)",
    ),
    "days-less-than-a-step": (["simulate", *FAST, "--days", "1e-9"], 1, "less than one step of 10 simulated"),
    "until-within-a-step": (["simulate", *FAST, "--until", "2023-02-13T00:00:05"], 1, "never reaches it"),
    "keep-time-after-the-end": (
        ["simulate", *FAST, "--until", "2023-02-13T01:00", "--keep-checkpoints", "2023-02-20T00:00"],
        1,
        "outside the run",
    ),
    "api-base-offline": (["simulate", *FAST, "--api-base", "http://127.0.0.1:1"], 1, "--api-base: http://127.0.0.1:1"),
    "log-prompts-folder": (["simulate", *FAST, "--log-prompts", "/tmp"], 2, "/tmp is a folder"),
    "log-prompts-under-a-file": (["simulate", *FAST, "--log-prompts", "/etc/hostname/p.jsonl"], 2, "is a file"),
    "out-under-a-file": (["simulate", *FAST, "--out", "/etc/hostname/run"], 2, "/etc/hostname is a file"),
    "evaluate-repeats-huge": (["evaluate", "runs/x", "--repeats", "1000000"], 2, "from 1 to 20"),
    "evaluate-repeats-zero": (["evaluate", "runs/x", "--repeats", "0"], 2, "from 1 to 20"),
    "batch-seeds-huge": (["batch", "--seeds", "0-99999999999"], 1, "more than 1000 in one batch"),
    "batch-seeds-backwards": (["batch", "--seeds", "9-3"], 1, "runs backwards; give it as 3-9"),
    "batch-seeds-superscript": (["batch", "--seeds", "\u00b2"], 1, "use a range such as 0-9"),
    "batch-workers-huge": (["batch", "--seeds", "0", "--workers", "100000"], 2, "from 1 to 1024"),
    "fork-broadcast-empty": (
        ["fork", "runs/x", "--at", "2023-02-13T00:05", "--out", "y", "--broadcast", ""],
        2,
        "empty",
    ),
    "fork-whisper-control": (
        ["fork", "runs/x", "--at", "2023-02-13T00:05", "--out", "y", "--whisper", "Klaus Mueller", "a\x01b"],
        2,
        "argument --whisper: the change's text holds control characters",
    ),
    "fork-set-blank": (["fork", "runs/x", "--at", "2023-02-13T00:05", "--out", "y", "--set", " ", "on"], 2, "empty"),
    "resume-no-run": (["resume", "/nonexistent/run"], 1, "not a run folder"),
    "serve-no-run": (["serve", "/nonexistent/run"], 1, "not a run folder"),
}


@pytest.mark.parametrize(("argv", "code", "words"), FLAG_CASES.values(), ids=FLAG_CASES.keys())
def test_a_bad_flag_is_one_line(argv, code, words, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # nothing may be written where the tests run
    line = one_line(capsys, argv, code)
    assert words in line
    assert not (tmp_path / "runs").exists()


def test_a_port_in_use_is_one_line_before_the_page_server_starts(capsys, monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *args, **kwargs: started.append(args))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        line = one_line(capsys, ["serve", *FAST, "--port", str(port)], 1)
    assert line == (
        f"error: --port {port}: 127.0.0.1:{port} is in use by another program; give another --port, or stop it"
    )
    assert not started


def _scenario(tmp_path: Path, change) -> str:
    data = json.loads((SCENARIOS_DIR / "the_ville_n3.json").read_text())
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data) if isinstance(data, dict) else data)
    return str(path)


def _set(path: str, value):
    def change(data):
        *parents, last = path.split(".")
        for part in parents:
            data = data[int(part)] if part.isdigit() else data[part]
        data[int(last) if last.isdigit() else last] = value

    return change


SCENARIO_CASES = {
    "gathering-nowhere": (_set("gathering.place", "the Ville:Nowhere Bar"), "'gathering.place'", "not a place"),
    "gathering-backwards": (_set("gathering.end", "2023-02-14T16:00:00"), "'gathering'", "before it starts"),
    "gathering-before-start": (
        lambda d: d["gathering"].update(start="2023-02-10T17:00:00", end="2023-02-10T19:00:00"),
        "gathering",
        "before the scenario starts",
    ),
    "agent-in-a-wall": (_set("agents.0.tile", [80, 12]), "'agents.0.tile'", "walkable"),
    "agent-off-the-map": (_set("agents.1.tile", [5000, 5000]), "'agents.1.tile'", "off the map"),
    "agent-unnamed": (_set("agents.0.name", ""), "'agents.0.name'", "at least 1 character"),
    "step-zero": (_set("seconds_per_step", 0), "'seconds_per_step'", "greater than or equal to 1"),
    "no-agents": (_set("agents", []), "'agents'", "at least 1 item"),
    "start-garbage": (_set("start", "Monday"), "'start'", "datetime"),
    "unknown-field": (_set("weather", "rain"), "'weather'", "Extra inputs"),
    "fact-no-keywords": (_set("facts.0.keywords", [[]]), "'facts.0.keywords'", "non-empty keyword"),
    "map-nowhere": (_set("map", "2023-02-13T08:00"), "field 'map'", "give a town's folder under data/"),
}


@pytest.mark.parametrize(("change", "field", "words"), SCENARIO_CASES.values(), ids=SCENARIO_CASES.keys())
def test_a_bad_scenario_file_is_one_line_naming_its_field(change, field, words, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    scenario = _scenario(tmp_path, change)
    line = one_line(capsys, ["simulate", "--scenario", scenario, "--embedder", "hashing"], 1)
    assert scenario in line and field in line and words in line
    assert not (tmp_path / "runs").exists()


def test_a_scenario_that_is_not_json_is_one_line(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"name": "x",')
    assert "not valid JSON" in one_line(capsys, ["simulate", "--scenario", str(path)], 1)


def test_a_cache_that_is_not_sqlite_is_refused(capsys, tmp_path):
    cache = tmp_path / "cache.sqlite"
    cache.write_text("these are my notes, not a cache")
    assert "is not a SQLite file" in one_line(capsys, ["simulate", *FAST, "--cache", str(cache)], 2)


def test_an_existing_folder_is_refused_with_what_to_do(capsys, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("buy milk")
    line = one_line(capsys, ["simulate", *FAST, "--out", str(tmp_path / "notes")], 1)
    assert "not a run folder; give another --out" in line
    assert (tmp_path / "notes" / "todo.txt").read_text() == "buy milk"


def test_an_out_that_is_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("buy milk")
    line = one_line(capsys, ["simulate", *FAST, "--out", str(tmp_path / "notes.txt")], 1)
    assert "notes.txt: is a file, not a run folder; give a folder" in line
    assert (tmp_path / "notes.txt").read_text() == "buy milk"


def test_a_bug_is_a_traceback_with_a_request_to_report_it(capsys, monkeypatch):
    from smallville.commands import report

    def broken(args):
        raise ZeroDivisionError("our mistake")

    monkeypatch.setattr(report, "run", broken)
    assert main(["report", "anything"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError: our mistake" in err
    assert err.strip().splitlines()[-1].startswith("this is a bug in Smallville-on-Mesa")
    assert "please report it" in err


@pytest.mark.parametrize(
    ("validator", "text", "words"),
    [
        (option_types.timeout, "0", "more than 0 and at most 3600"),
        (option_types.timeout, "-1", "more than 0"),
        (option_types.timeout, "1e9", "at most 3600"),
        (option_types.timeout, "soon", "is not a number"),
        (option_types.ranged("retrieval_count"), "0", "from 1 to 1000"),
        (option_types.ranged("retrieval_count"), "2.5", "not a whole number"),
    ],
    ids=["timeout-zero", "timeout-negative", "timeout-huge", "timeout-text", "count-zero", "count-fraction"],
)
def test_validators_for_the_new_tunables_refuse_with_the_fix(validator, text, words):
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        validator(text)


DEEP = "[" * 100_000 + "]" * 100_000
NESTED = {  # (the file's name, its text, the command, its exit code, the file's kind in the line)
    "scenario": ("nested.json", DEEP, ["simulate", "--scenario"], 1, "scenario"),
    "grid": ("nested.toml", f"a = {DEEP}\n", ["batch"], 1, "grid"),
    "interventions": (
        "nested.json",
        f'{{"interventions": {DEEP}}}',
        ["simulate", *FAST, "--interventions"],
        2,
        "interventions file",
    ),
    "battery": ("nested.toml", f"a = {DEEP}\n", ["evaluate", "runs/x", "--battery"], 1, "battery"),
}


@pytest.mark.parametrize(("name", "body", "argv", "code", "kind"), NESTED.values(), ids=NESTED.keys())
def test_a_file_nested_too_deeply_is_one_line_naming_it(name, body, argv, code, kind, capsys, tmp_path):
    path = tmp_path / name
    path.write_text(body)
    line = one_line(capsys, [*argv, str(path)], code)
    assert f"{path}: nested too deeply to read" in line and f"flatten the {kind}" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_prompt_log_is_refused_before_the_run_folder_is_made(capsys, tmp_path):
    log = tmp_path / "prompts.jsonl"
    log.write_text("")
    log.chmod(0o444)
    line = one_line(capsys, ["simulate", *FAST, "--log-prompts", str(log), "--out", str(tmp_path / "run")], 2)
    assert "the file is read-only" in line and not (tmp_path / "run").exists()


def test_a_fork_folder_inside_its_source_is_refused_in_one_line(tmp_path):
    with pytest.raises(ValueError, match=r"--out .*inside the run it comes from .*give a folder outside it"):
        check_outside(tmp_path / "run" / "fork", tmp_path / "run")
    check_outside(tmp_path / "run-fork", tmp_path / "run")  # beside it: fine
