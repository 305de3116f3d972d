"""The fault campaign, every door: what the held-out campaign found crashing or accepted, now one line each.

Each class it found (a time zone, a file not UTF-8, a grid value the CLI refuses, an invisible text, a value given
twice, a hand-edited config, a damaged metrics row, a read-only folder...) is tried here with new cases of its own, at
every door the value can come in by: a flag, a scenario file, a batch grid, a battery, a run's config.json. Each
must end in exactly one line naming the flag, file or key and the fix, with no traceback and nothing left behind.
The closing counts (`test_the_campaign_counts`) are the issue's figures.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from smallville.cli import main
from smallville.evaluation.battery import BatteryError, check_fact_questions, load_battery
from smallville.runs.diagnosis import diagnose
from smallville.scenarios.scenario import SCENARIOS_DIR
from testing import free_port
from tests.smallville.fault_log import one_line, record
from tests.smallville.run_folders import FAST

ROOT = Path(__file__).resolve().parents[2]
GRID = """scenarios = ["the_ville_n3"]
seeds = [0, 1]
days = 0.05

[parameters]
embedder = "hashing"

[conditions.full]
[conditions.quiet]
reflection = false
"""


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A short run folder (do not change it: copy it)."""
    out = tmp_path_factory.mktemp("doors") / "run"
    assert (
        main(["simulate", *FAST, "--until", "2023-02-13T00:20", "--checkpoint-minutes", "10", "--out", str(out)]) == 0
    )
    return out


# --- flags: (arguments, exit code, words the one line holds) ---------------------------------------------------

FLAGS = {
    "keep-checkpoints-zoned": (["simulate", *FAST, "--keep-checkpoints", "2023-02-13T08:00Z"], 2, "time zone"),
    "until-negative-offset": (["simulate", *FAST, "--until", "2023-02-13T06:00-03:30"], 2, "has none"),
    "whisper-at-zoned": (["whisper", "runs/x", "Klaus Mueller", "hi", "--at", "2023-02-13T08:00+00:00"], 2, "zone"),
    "evaluate-at-zoned": (["evaluate", "runs/x", "--at", "2023-02-13T08:00+01:00"], 1, "--at 2023-02-13T08:00:00+01"),
    "thinking-steps-absurd": (["simulate", *FAST, "--thinking-steps", "99999"], 2, "from 0 to 360"),
    "route-same-twice": (["simulate", *FAST, "--route", "action=offline,action=offline"], 2, "routed twice"),
    "vision-beyond-map": (["simulate", *FAST, "--vision-radius", "1000"], 1, "--vision-radius: 1000 tiles"),
    "serve-vision-beyond-map": (["serve", *FAST, "--vision-radius", "141"], 1, "more than the map's 140 x 100"),
    "out-blank": (["simulate", *FAST, "--out", "   "], 2, "the folder is empty"),
    "batch-out-empty": (["batch", "--seeds", "0", "--out", ""], 2, "the folder is empty"),
    "whisper-word-joiners": (["whisper", "runs/x", "Klaus Mueller", "\u2060\u200d\u2060"], 2, "statement is empty"),
    "question-byte-order-mark": (["interview", "runs/x", "Klaus Mueller", "\ufeff \ufeff"], 2, "question is empty"),
    "batch-conditions-twice": (["batch", "--conditions", "no_reflection,full,no_reflection"], 1, "named twice"),
    "evaluate-conditions-twice": (["evaluate", "runs/x", "--conditions", "full,persona_only,full"], 1, "named twice"),
    "evaluate-agents-twice": (["evaluate", "runs/x", "--agents", "Klaus Mueller,Klaus Mueller"], 1, "named twice"),
    "serve-host-blank": (["serve", *FAST, "--host", "  "], 1, "--host is empty"),
    "embedder-key-missing": (["simulate", *FAST[:2], "--embedder", "openai/text-embedding-3-large"], 1, "needs"),
    "ray-port-closed": (
        ["batch", "--seeds", "0", "--scenario", "the_ville_n3", "--ray", "127.0.0.1:1"],
        1,
        "no Ray cluster answers there",
    ),
    "ray-port-garbage": (
        ["batch", "--seeds", "0", "--scenario", "the_ville_n3", "--ray", "head:sixty"],
        1,
        "is not a port",
    ),
}


@pytest.mark.parametrize(("argv", "code", "words"), FLAGS.values(), ids=FLAGS.keys())
def test_a_bad_flag_is_one_line(argv, code, words, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    if "--ray" in argv:
        pytest.importorskip("ray")
    line = one_line(capsys, argv, code, after_progress="--ray" in argv)  # (a batch names its folder first)
    assert words in line, line
    assert not (tmp_path / "runs").exists() and not any(tmp_path.glob("batches/*/cells/*"))


# --- scenario files -------------------------------------------------------------------------------------------


def _scenario(tmp_path: Path, change) -> Path:
    data = json.loads((SCENARIOS_DIR / "the_ville_n3.json").read_text())
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    return path


SCENARIOS = {
    "start-offset": (lambda d: d.update(start="2023-02-13T00:00:00-08:00"), "'start'", "time zone"),
    "gathering-utc": (lambda d: d["gathering"].update(start="2023-02-14T17:00:00Z"), "'gathering.start'", "zone"),
    "fact-id-twice": (lambda d: d["facts"].append(dict(d["facts"][0], description="again")), "(top level)", "two"),
}


@pytest.mark.parametrize(("change", "field", "words"), SCENARIOS.values(), ids=SCENARIOS.keys())
def test_a_bad_scenario_is_one_line(change, field, words, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    path = _scenario(tmp_path, change)
    line = one_line(capsys, ["simulate", "--scenario", str(path), "--embedder", "hashing"], 1)
    assert str(path) in line and field in line and words in line, line


# --- files that are not UTF-8, at every door ---------------------------------------------------------------------


def test_a_file_that_is_not_utf8_is_one_line_at_every_door(capsys, tmp_path, finished):
    scenario = tmp_path / "town.json"
    scenario.write_bytes(
        (SCENARIOS_DIR / "the_ville_n3.json").read_text().replace("Ville", "Vill\u00e9").encode("cp1252")
    )
    grid = tmp_path / "grid.toml"
    grid.write_bytes(GRID.replace("[conditions.quiet]", "# caf\u00e9 au lait\n[conditions.quiet]").encode("latin-1"))
    battery = tmp_path / "mine.toml"
    battery.write_bytes('name = "mine"\n[[categories]]\nname = "a"\nquestions = ["Hi?"]\n'.encode("utf-16"))
    interventions = tmp_path / "plan.toml"
    interventions.write_bytes(b'[[interventions]]\ntime = "2023-02-13T08:00"\nkind = "broadcast"\ntext = "\xa1Fire!"\n')
    doors = [
        (["simulate", "--scenario", str(scenario)], 1, scenario),
        (["batch", str(grid), "--out", str(tmp_path / "b")], 1, grid),
        (["evaluate", str(finished), "--battery", str(battery)], 1, battery),
        (["simulate", *FAST, "--interventions", str(interventions)], 2, interventions),
    ]
    for argv, code, path in doors:
        line = one_line(capsys, argv, code)
        assert f"{path}: not UTF-8 text (byte 0x" in line and "save the" in line and "as UTF-8" in line, line


# --- batch grids: every cell checked before any starts, the key named -----------------------------------------------

GRIDS = {
    "condition-names-no-agent": ('[conditions.quiet]\nreflection = false\nagents = ["Klaus Mueller", "Nobody Here"]',
                                 "conditions.quiet.agents", "no agent named 'Nobody Here'"),
    "days-over-a-year": ("days = 400", "days", "at most 365"),
    "seed-negative-in-list": ("seeds = [3, -7]", "seeds", "-7 is out of range"),
    "until-utc": ('until = 2023-02-13T09:00:00Z', "until", "time zone"),
    "until-at-start": ("until = 2023-02-13T00:00:00", "until", "not after the scenario's start"),
    "sweep-zero-weights": ('[sweep]\nretrieval_weights = ["1,1,1", "0,0,0"]', "sweep[1].retrieval_weights",
                           "not all 0"),
    "sweep-empty": ("[sweep]\nvision_radius = []", "sweep.vision_radius", "an empty list would make no cells"),
    "condition-name-too-long": (f"[conditions.{'x' * 150}]", "conditions", "too long to name a cell's folder"),
    "seeds-range-huge": ('seeds = "0-99999999999"', "seeds", "more than 1000 in one batch"),
    "cells-too-many": (f"[sweep]\nretention = [{', '.join(['5'] * 2600)}]", "10400 cells", "split it"),
    "cell-name-too-long": (f'scenarios = ["{"s" * 230}.json"]', "cell name", "too long for a folder's name"),
    "sweep-vision-beyond-map": ("[sweep]\nvision_radius = [4, 500]", "sweep.vision_radius", "more than the map's"),
    "thinking-steps-absurd": ("[conditions.quiet]\nreflection = false\nthinking_steps = 100000",
                              "conditions.quiet.thinking_steps", "from 0 to 360"),
    "in-flight-zero": ("[parameters]\nembedder = \"hashing\"\nmax_in_flight = 0", "parameters.max_in_flight",
                       "out of range"),
    "llm-not-litellm": ('[parameters]\nembedder = "hashing"\nllm = "gpt4"', "parameters.llm", "use 'offline' or"),
    "budget-nan": ("[budget]\ncost = nan", "budget.cost", "not a finite number"),
    "budget-minus-inf": ("[budget]\ncost = -inf", "budget.cost", "not a finite number"),
    "route-unknown-kind": ('[parameters]\nembedder = "hashing"\nroutes = {gossip = "offline"}', "parameters.routes",
                           "no request kind 'gossip'"),
}  # fmt: skip


def _grid_with(text: str) -> str:
    """GRID with `text`'s lines replacing the ones they set (a table replaces that table)."""
    grid = GRID
    for table in ("[parameters]", "[conditions.quiet]"):
        if text.startswith(table):
            start = grid.index(table)
            end = grid.find("\n[", start + 1)
            grid = grid[:start] + grid[end + 1 if end != -1 else len(grid) :]
    for key in ("seeds", "days", "scenarios"):
        if text.startswith(f"{key} ") or (key == "days" and text.startswith("until")):
            grid = "\n".join(line for line in grid.splitlines() if not line.startswith(f"{key} "))
    return text + "\n" + grid if not text.startswith("[") else grid + "\n" + text + "\n"


@pytest.mark.parametrize(("text", "key", "words"), GRIDS.values(), ids=GRIDS.keys())
def test_a_grid_value_the_cli_refuses_is_one_line_before_any_cell(text, key, words, capsys, tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text(_grid_with(text))
    line = one_line(capsys, ["batch", str(path), "--out", str(tmp_path / "batch")], 1)
    assert line.startswith(f"error: {path}: {key}"), line
    assert words in line, line
    assert not (tmp_path / "batch").exists()  # no cell started, nothing written


# --- batteries: what the reader refuses ------------------------------------------------------------------------------

BATTERIES = {
    "question-only-spaces": ('questions = ["Who are you?", "   "]', "questions.1", "the question is empty"),
    "question-zero-width": ('questions = ["\u200b\u200c"]', "questions.0", "the question is empty"),
    "question-bell": ('questions = ["Who is {name}?\\u0007"]', "questions.0", "control character"),
    "question-attribute": ('questions = ["Is {name.upper} you?"]', "categories.0.questions", "unknown placeholder"),
    "question-twice": ('questions = ["Hi?", "Hi?"]', "questions.1", "asked twice"),
    "question-too-long": (f'questions = ["{"Why? " * 500}"]', "questions.0", "more than 2000"),
    "category-twice": ('questions = ["Hi?"]\n[[categories]]\nname = "talk"\nquestions = ["Bye?"]', "categories",
                       "would collide"),
    "fact-question-placeholder": ('questions = ["Hi?"]\n[measures.fact_questions]\nparty = "Heard of {topic}?"',
                                  "fact_questions.party", "unknown placeholder {topic}"),
}  # fmt: skip


@pytest.mark.parametrize(("body", "field", "words"), BATTERIES.values(), ids=BATTERIES.keys())
def test_a_battery_the_interviews_cannot_use_is_refused_by_its_reader(body, field, words, tmp_path, finished, capsys):
    path = tmp_path / "mine.toml"
    path.write_text(f'name = "mine"\n[[categories]]\nname = "talk"\n{body}\n')
    with pytest.raises(BatteryError) as caught:
        load_battery(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: field ") and field in message and words in message, message
    before = sorted(path.name for path in finished.iterdir())
    line = one_line(capsys, ["evaluate", str(finished), "--battery", str(path)], 1)  # at the door: before any work
    assert line == f"error: {message}", line
    assert sorted(path.name for path in finished.iterdir()) == before


def test_a_battery_question_about_a_fact_the_town_does_not_track_is_named_not_passed_over():
    battery = load_battery(None)  # the paper's: it asks about the party and the candidacy
    notes = check_fact_questions(battery, ["party", "exhibition"], "ground_truth_n7")
    assert notes == [
        "battery paper: measures.fact_questions.candidacy: scenario ground_truth_n7 tracks no fact 'candidacy', so "
        "this question is not asked here (it tracks: party, exhibition)"
    ]
    assert check_fact_questions(battery, ["party", "candidacy"], "the_ville_n3") == []


# --- a run's config.json, edited by hand ---------------------------------------------------------------------------


def _edit(run: Path, **changes) -> None:
    config = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**config, **changes}, indent=2))


@pytest.mark.parametrize(
    ("changes", "words"),
    [({"thinking_steps": 3}, "thinking_steps was edited by hand (20 -> 3)"),
     ({"embedder": "minilm"}, "embedder was edited by hand ('hashing' -> 'minilm')"),
     ({"rng": -4}, "rng was edited by hand (0 -> -4)")],
    ids=["thinking-steps", "embedder", "negative-seed"],
)  # fmt: skip
def test_a_town_setting_edited_by_hand_is_refused_naming_it(run, capsys, changes, words):
    before = (run / "checkpoint" / "state.json").read_bytes()
    _edit(run, **changes)
    for argv in (["resume", str(run)], ["interview", str(run), "Klaus Mueller", "How are you?"]):
        line = one_line(capsys, argv, 1)
        assert words in line and "put back" in line and "start a new run" in line, line
    assert (run / "checkpoint" / "state.json").read_bytes() == before


@pytest.mark.slow  # resumes the run
def test_a_run_term_edited_by_hand_is_named_and_taken(run, capsys):
    _edit(run, end="2023-02-13T00:30:00")
    assert main(["resume", str(run)]) == 0
    err = capsys.readouterr().err
    assert "note: " in err and "end was edited by hand ('2023-02-13T00:20:00' -> '2023-02-13T00:30:00')" in err
    assert json.loads((run / "checkpoint" / "state.json").read_text())["now"] == "2023-02-13T00:30:00"
    assert main(["report", str(run)]) == 0
    assert "edited by hand" not in capsys.readouterr().err  # taken on by the writer: named once


def test_a_value_no_flag_accepts_in_an_old_config_is_one_line(run, capsys):
    (run / ".config.written.json").unlink()  # a folder from before the copy was kept
    _edit(run, collect_every=0)
    line = one_line(capsys, ["resume", str(run)], 1)
    assert "config.json: collect_every = 0: 0 is out of range" in line, line


def test_a_config_naming_other_agents_than_the_checkpoint_is_one_line(run, capsys):
    (run / ".config.written.json").unlink()
    _edit(run, agents=2)
    line = one_line(capsys, ["interview", str(run), "Klaus Mueller", "Hi?"], 1)
    assert "config.json: names a town (the_ville_n3, 2 agents) that is not the checkpoint's (3 agents" in line, line


# --- serve RUN and a damaged metrics row -------------------------------------------------------------------------


def test_model_options_given_to_a_replay_are_refused(finished, capsys):
    line = one_line(capsys, ["serve", str(finished), "--seed", "5", "--agents", "2"], 1)
    assert line.startswith("error: --agents, --seed: a replay of ") or line.startswith("error: --seed, --agents"), line
    assert "builds no model; drop them" in line


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [("aware_party", "1.7", "aware_party is '1.7', not a share from 0 to 1"),
     ("model_calls", "-3", "model_calls is '-3', not a number, 0 or more"),
     ("time", "yesterday", "time 'yesterday' is not a time")],
    ids=["share-above-one", "negative-count", "time-garbage"],
)  # fmt: skip
def test_a_damaged_metrics_row_is_named_not_plotted(run, capsys, column, value, words):
    path = run / "metrics" / "model.csv"
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    cells = lines[4].split(",")
    cells[header.index(column)] = value
    lines[4] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    line = one_line(capsys, ["report", str(run)], 1)
    assert f"model.csv: row 5: {words}" in line, line
    assert not (run / "report" / "density.png").exists()


# --- diagnoses: permission, a full disk, a lock, damage ------------------------------------------------------------


def test_each_cause_is_said_as_such(tmp_path):
    database = tmp_path / "events.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("create table t (x)")
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("begin exclusive")
    other = sqlite3.connect(database, timeout=0)
    with pytest.raises(sqlite3.OperationalError) as locked:
        other.execute("select * from t")
    holder.rollback()
    reader = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as read_only:
        reader.execute("insert into t values (1)")
    garbage = tmp_path / "memory.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    with pytest.raises(sqlite3.DatabaseError) as damaged:
        sqlite3.connect(garbage).execute("select 1 from sqlite_master")
    causes = {
        "lock": diagnose(database, locked.value),
        "permission": diagnose(database, read_only.value),
        "full": diagnose(database, OSError(28, "No space left on device")),
        "damage": diagnose(garbage, damaged.value),
        "other": diagnose(database, OSError(5, "Input/output error")),
    }
    assert causes["lock"][0].startswith("locked by another program")
    assert causes["permission"][0].startswith("permission denied")
    assert causes["full"] == ("No space left on device", "free some disk space")
    assert causes["damage"][0] == "damaged: file is not a database" and "restore it from a copy" in causes["damage"][1]
    assert causes["other"] is None  # none of the four: said in the system's own words by the caller


def _as_a_user_without_override(command: list[str]) -> list[str]:
    """The command as it runs for a user the file modes bind (root ignores them: its overriding powers are dropped)."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be made")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]


@pytest.mark.slow  # four processes (~5 s each)
def test_a_read_only_run_folder_is_read_and_a_write_says_permission_not_damage(run):
    for path in [run, *run.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)

    def cli(*argv: str) -> subprocess.CompletedProcess:
        command = _as_a_user_without_override([sys.executable, "run.py", *argv])
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)

    try:
        read = cli("interview", str(run), "Klaus Mueller", "How are you?")
        assert read.returncode == 0 and read.stdout.startswith("Klaus Mueller: "), read.stderr[-2000:]
        writes = (
            ["whisper", str(run), "Klaus Mueller", "The bakery closes early."],
            ["interview", str(run), "Klaus Mueller", "How are you?", "--remember"],
            ["report", str(run)],
        )
        for argv in writes:
            result = cli(*argv)
            record(argv, result.returncode, result.stderr)
            errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
            assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
            assert len(errors) == 1 and "permission denied" in errors[0] and "chmod" in errors[0], errors
            assert "damaged" not in errors[0] and "restore" not in errors[0]
    finally:
        for path in [run, *run.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)


@pytest.mark.slow  # a spawned cell builds its town and tries a dead server 4 times (~15 s)
def test_a_batch_whose_cells_fail_names_the_first_failure_not_only_run_again(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    port = free_port()  # a port where nothing listens
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'scenarios = ["the_ville_n3"]\nseeds = [0]\ndays = 0.01\n[parameters]\nembedder = "hashing"\n'
        f'llm = "openai/x"\napi_base = "http://127.0.0.1:{port}/v1"\n'
    )
    code = main(["batch", str(grid), "--out", str(tmp_path / "b"), "--workers", "1"])
    err = " ".join(capsys.readouterr().err.split())  # (rich wraps the line at the terminal's width)
    assert code == 2 and "Traceback" not in err, err[-3000:]
    assert "1 cells failed; the first, full--the_ville_n3--seed0: ModelUnavailable: openai/x failed 4 times" in err
    assert f"could not reach its server at http://127.0.0.1:{port}/v1 (Connection refused)" in err
    assert "fix the cause, then run the same command again" in err and "cells unfinished" not in err


def test_an_interview_whose_model_server_is_down_is_one_line_saying_what_to_do(finished, capsys, quick_faults):
    server = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    argv = ["interview", str(finished), "Klaus Mueller", "How was your day?", "--llm", "openai/gpt-4o-mini"]
    line = one_line(capsys, [*argv, "--api-base", server], 1)
    assert f"could not reach its server at {server}" in line
    assert line.endswith("nothing was stored; ask again once it answers, or give another --api-base or another --llm")


def test_a_server_for_an_offline_run_is_refused_on_resume_and_interview_too(run, capsys):
    line = one_line(capsys, ["resume", str(run), "--api-base", "http://127.0.0.1:1"], 1)
    assert line.startswith("error: --api-base http://127.0.0.1:1: the run is offline"), line
    line = one_line(capsys, ["interview", str(run), "Klaus Mueller", "Hi?", "--api-base", "http://127.0.0.1:1"], 1)
    assert line.startswith("error: --api-base http://127.0.0.1:1: the run is offline"), line


def test_a_time_no_run_reaches_is_refused_by_set_and_whisper(run, capsys):
    far = ["--at", "2025-01-01T00:00"]
    line = one_line(capsys, ["whisper", str(run), "Klaus Mueller", "The library closes early", *far], 1)
    assert "--at 2025-01-01T00:00: more than 365 days after the start, which no run reaches" in line
    address = "the Ville:Hobbs Cafe:cafe:piano"
    assert "which no run reaches" in one_line(capsys, ["set", str(run), address, "out of tune", *far], 1)
