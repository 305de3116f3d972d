"""The fault campaign, run folders: damaged files, a damaged newest checkpoint, two writers, a full disk, no checkpoint.

One short run (three agents, 30 simulated minutes, a checkpoint every 10) is written once; every test damages a copy
and runs the CLI in-process on it.
"""

import json
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from memory import StoreError
from smallville.cli import main
from smallville.runs.folder import RunFolder, read_calls
from smallville.runs.integrity import RunFolderError, checkpoint_calls, read_config, read_snapshot
from smallville.runs.lock import RunLock
from tests.smallville.fault_log import one_line
from tests.smallville.run_folders import FAST, events, final_state

END = "2023-02-13T00:30"


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished run folder (do not change it: copy it)."""
    out = tmp_path_factory.mktemp("base") / "run"
    assert main(["simulate", *FAST, "--until", END, "--checkpoint-minutes", "10", "--out", str(out)]) == 0
    return out


def _sql(path: Path, statement: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute(statement)


def _json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# Damage that no checkpoint can get around: (how, the file named, what is wrong).
FATAL = {
    "config-empty": (lambda r: (r / "config.json").write_text(""), "config.json", "empty"),
    "config-garbage": (lambda r: (r / "config.json").write_text('{"llm": '), "config.json", "not valid JSON"),
    "config-list": (lambda r: (r / "config.json").write_text("[]"), "config.json", "holds a list"),
    "config-no-end": (lambda r: _json(r / "config.json", lambda d: d.pop("end")), "config.json", "'end'"),
    "config-bad-minutes": (
        lambda r: _json(r / "config.json", lambda d: d.update(checkpoint_minutes=-5)),
        "config.json",
        "'checkpoint_minutes'",
    ),
    "checkpoints-both-garbage": (
        lambda r: [(r / "checkpoint" / name).write_text("{") for name in ("state.json", "previous.json")],
        "state.json",
        "no earlier checkpoint is usable",
    ),
    "events-garbage": (
        lambda r: (r / "events.sqlite").write_bytes(b"\x00garbage" * 512),
        "events.sqlite",
        "cannot be read (damaged: file is not a database)",
    ),
    "events-emptied": (lambda r: _sql(r / "events.sqlite", "delete from events"), "events.sqlite", "holds 0 rows"),
    "calls-emptied": (lambda r: _sql(r / "events.sqlite", "delete from calls"), "events.sqlite", "holds 0 calls"),
    "calls-other-columns": (
        lambda r: _sql(r / "events.sqlite", "alter table calls drop column cost"),
        "events.sqlite",
        "the calls table has columns",
    ),
    "events-newer-layout": (
        lambda r: _sql(r / "events.sqlite", "pragma user_version = 99"),
        "events.sqlite",
        "newer than this program's",
    ),
    "memory-garbage": (
        lambda r: (r / "memory.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000),
        "memory.sqlite",
        "(damaged: file is not a database)",
    ),
    "memory-lost-nodes": (lambda r: _sql(r / "memory.sqlite", "delete from nodes"), "memory.sqlite", "holds 0"),
    "memory-short-vectors": (
        lambda r: _sql(r / "memory.sqlite", "update nodes set embedding = x'00000000' where id = 0"),
        "memory.sqlite",
        "numbers long",
    ),
    "metrics-cut": (
        lambda r: (r / "metrics" / "model.csv").write_text("time,density\n"),
        "model.csv",
        "holds 0 rows",
    ),
    "agent-metrics-gone": (lambda r: (r / "metrics" / "agents.csv").unlink(), "agents.csv", "holds 0 rows"),
}


def _wal_free(folder: Path) -> None:
    for path in folder.glob("*-wal"):
        path.unlink()
    for path in folder.glob("*-shm"):
        path.unlink()


@pytest.mark.parametrize("command", [pytest.param("resume", marks=pytest.mark.slow), "interview", "report", "whisper"])
@pytest.mark.parametrize(("damage", "file", "words"), FATAL.values(), ids=FATAL.keys())
def test_a_damaged_file_is_one_line_naming_it(run, damage, file, words, command, capsys):
    _wal_free(run)
    damage(run)
    argv = {
        "resume": ["resume", str(run)],
        "interview": ["interview", str(run), "Klaus Mueller", "How are you?"],
        "report": ["report", str(run)],
        "whisper": ["whisper", str(run), "Klaus Mueller", "You are running for mayor"],
    }[command]
    line = one_line(capsys, argv, 1)
    assert file in line and words in line


DAMAGED_NEWEST = {
    "empty": lambda path: path.write_text(""),
    "garbage": lambda path: path.write_bytes(b"\x89\x00\xff not json"),
    "cut-short": lambda path: path.write_text(path.read_text()[:500]),
    "wrong-shape": lambda path: _json(path, lambda d: d.update(events=-1)),
    "counts-too-much": lambda path: _json(path, lambda d: d.update(events=10**6)),
    "counts-too-many-calls": lambda path: _json(path, lambda d: d.update(calls=10**6)),
    "calls-and-ledger": lambda path: _json(path, lambda d: d["model"].update(ledger={"records": []})),
    "agent-missing": lambda path: _json(path, lambda d: d["stream_lengths"].popitem()),
}


@pytest.mark.slow  # resumes the run
@pytest.mark.parametrize("damage", DAMAGED_NEWEST.values(), ids=DAMAGED_NEWEST.keys())
def test_a_damaged_newest_checkpoint_falls_back_to_the_previous_one(run, finished, damage, capsys):
    damage(run / "checkpoint" / "state.json")
    assert main(["resume", str(run)]) == 0
    err = capsys.readouterr().err
    assert "state.json" in err and "using the previous checkpoint (2023-02-13 00:20)" in err and "Traceback" not in err
    assert events(run) == events(finished)  # the lost interval was simulated again, identically
    assert final_state(run) == final_state(finished)


def test_readers_fall_back_too_and_change_nothing(run, capsys):
    (run / "checkpoint" / "state.json").write_text("")
    before = {path: path.read_bytes() for path in run.rglob("*") if path.is_file() and "-" not in path.name}
    assert main(["report", str(run)]) == 0
    assert main(["interview", str(run), "Klaus Mueller", "How are you?"]) == 0
    assert "Klaus Mueller:" in capsys.readouterr().out
    for path, data in before.items():
        assert path.read_bytes() == data, path


@pytest.mark.slow  # resumes the run
def test_a_second_writer_is_refused_naming_the_first(run, capsys):
    lock = RunLock(run)  # another writer (flock conflicts between two opens, even in one process)
    try:
        for argv in (
            ["resume", str(run)],
            ["whisper", str(run), "Klaus Mueller", "You are running for mayor"],
            ["interview", str(run), "Klaus Mueller", "How are you?", "--remember"],
            ["simulate", *FAST, "--out", str(run)],
        ):
            line = one_line(capsys, argv, 1)
            assert f"another process (pid {Path('/proc/self').resolve().name})" in line
            assert "is writing to this run folder" in line
        assert main(["report", str(run)]) == 0  # readers are welcome
        assert main(["interview", str(run), "Klaus Mueller", "How are you?"]) == 0
    finally:
        lock.release()
    assert main(["whisper", str(run), "Klaus Mueller", "You are running for mayor"]) == 0


def test_a_lock_left_by_a_dead_writer_locks_nothing(run, capsys):
    (run / ".lock").write_text("999999\n")  # a writer killed with SIGKILL leaves its file, not its lock
    assert main(["whisper", str(run), "Klaus Mueller", "You are running for mayor"]) == 0


def test_an_existing_run_is_refused_with_the_resume_command(run, capsys):
    line = one_line(capsys, ["simulate", *FAST, "--out", str(run)], 1)
    assert f"continue it with `run.py resume {run}`" in line


@pytest.mark.slow  # resumes the run
def test_a_run_killed_while_loading_starts_again_on_resume(run, finished, capsys):
    for path in run.iterdir():
        if path.name != "config.json":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    assert main(["resume", str(run)]) == 0
    assert "starting it from the beginning" in capsys.readouterr().err
    assert events(run) == events(finished)
    assert final_state(run) == final_state(finished)


def test_interview_and_report_of_a_run_without_checkpoint_say_to_wait(run, capsys):
    shutil.rmtree(run / "checkpoint")
    assert "no checkpoint yet" in one_line(capsys, ["report", str(run)], 1)
    assert "no checkpoint yet" in one_line(capsys, ["interview", str(run), "Klaus Mueller", "Hi?"], 1)


def _extend(run: Path) -> None:
    """Give the finished run ten more minutes to simulate."""
    _json(run / "config.json", lambda d: d.update(end="2023-02-13T00:40:00"))


@pytest.mark.slow  # resumes the run
def test_a_full_disk_names_the_file_and_keeps_the_last_checkpoint(run, capsys, monkeypatch):
    from smallville.runs import store as run_store

    _extend(run)
    before = (run / "checkpoint" / "state.json").read_bytes()
    original = run_store._write_atomically

    def full(path, text, keep=None):
        if path.name == "state.json":
            raise OSError(28, "No space left on device", str(path))
        original(path, text, keep)

    monkeypatch.setattr(run_store, "_write_atomically", full)
    line = one_line(capsys, ["resume", str(run)], 1, after_progress=True)
    assert "state.json: cannot be written (No space left on device)" in line
    assert "the last good checkpoint (2023-02-13 00:30) is intact" in line and f"run.py resume {run}" in line
    assert (run / "checkpoint" / "state.json").read_bytes() == before
    monkeypatch.undo()
    assert main(["resume", str(run)]) == 0  # space freed: it goes on


@pytest.mark.slow  # resumes the run
def test_a_full_disk_in_the_memory_store_does_not_blame_the_store(run, capsys, monkeypatch):
    from memory import MemoryStore

    _extend(run)

    def full(self, streams):
        raise StoreError(f"{self.path}: saving failed: not a readable memory store") from sqlite3.OperationalError(
            "database or disk is full"
        )

    monkeypatch.setattr(MemoryStore, "save_all", full)
    line = one_line(capsys, ["resume", str(run)], 1, after_progress=True)
    assert "memory.sqlite: cannot be written (database or disk is full)" in line
    assert "not a readable" not in line


@pytest.mark.slow  # resumes the run
def test_a_crash_mid_append_leaves_a_readable_folder(run, finished, capsys):
    with (run / "metrics" / "model.csv").open("a") as handle:
        handle.write("2023-02-13 00:31:00,0.5,0.3")  # a row cut short by a kill
    _sql(
        run / "events.sqlite", "insert into events (time, agent, kind, text, details) values ('x', 'y', 'z', 'w', '{}')"
    )
    assert main(["report", str(run)]) == 0
    assert main(["resume", str(run)]) == 0
    assert events(run) == events(finished)


@pytest.mark.slow  # a simulation
def test_a_simulate_killed_before_its_config_was_in_place_can_be_started_again(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / ".lock").write_text("999999\n")
    (out / "config.json.tmp").write_text('{"scenario_na')  # the kill came mid-write
    assert main(["simulate", *FAST, "--until", "2023-02-13T00:10", "--out", str(out)]) == 0
    assert json.loads((out / "config.json").read_text())["end"] == "2023-02-13T00:10:00"


def test_the_calls_are_a_table_and_the_checkpoint_only_counts_them(finished):
    state = json.loads((finished / "checkpoint" / "state.json").read_text())
    assert "ledger" not in state["model"]  # state.json no longer grows with every call of the run
    calls = read_calls(finished / "events.sqlite")
    assert len(calls) == state["calls"] > 0
    ledger = json.loads((finished / "ledger.json").read_text())
    assert sum(call["calls"] for call in calls) == ledger["totals"]["calls"]
    assert {call["kind"] for call in calls} == set(ledger["by_kind"])


@pytest.mark.slow  # resumes the run
def test_a_run_from_before_the_calls_table_resumes_and_moves_its_calls_there(run, finished, capsys):
    """Checkpoints written with events.sqlite layout 1 kept every call in state.json; such a run still goes on."""
    _wal_free(run)
    kept = {}
    for name in ("state.json", "previous.json"):
        path = run / "checkpoint" / name
        state = json.loads(path.read_text())
        kept[name] = checkpoint_calls(RunFolder(run), state)
        state["model"]["ledger"] = {"records": kept[name]}
        for key in ("calls", "digests", "checksum", "run_id"):  # none of them was written then
            del state[key]
        path.write_text(json.dumps(state))
    _sql(run / "events.sqlite", "drop table calls")
    _sql(run / "events.sqlite", "pragma user_version = 1")
    assert main(["report", str(run)]) == 0  # a reader takes the calls from the old checkpoint
    _extend(run)
    assert main(["resume", str(run)]) == 0, capsys.readouterr().err
    state = json.loads((run / "checkpoint" / "state.json").read_text())
    calls = read_calls(run / "events.sqlite")
    assert len(calls) == state["calls"] >= len(kept["state.json"]) > 0
    assert calls[: len(kept["state.json"])] == kept["state.json"]  # the old calls, moved into the table as they were
    with sqlite3.connect(run / "events.sqlite") as db:
        assert db.execute("pragma user_version").fetchone()[0] == 2


def test_a_run_from_before_thoughts_overlapped_reads_as_the_lock_step_it_ran(run, capsys):
    """A config.json that names no thinking steps was written when every run was lock-step: it goes on so."""
    assert read_config(RunFolder(run))["thinking_steps"] == 20  # today's default, written down

    def older(data: dict) -> None:
        del data["thinking_steps"], data["talk_thinking_steps"]

    _json(run / "config.json", older)
    config = read_config(RunFolder(run))
    assert (config["thinking_steps"], config["talk_thinking_steps"]) == (0, 0)
    assert main(["report", str(run)]) == 0
    assert "- thinking: lock-step" in (run / "report" / "summary.md").read_text()


@pytest.fixture(scope="module")
def stranger(tmp_path_factory) -> Path:
    """Another run of the same town and times (another seed): its files look like the finished run's own."""
    out = tmp_path_factory.mktemp("stranger") / "run"
    argv = ["simulate", *FAST, "--seed", "7", "--until", END, "--checkpoint-minutes", "10", "--out", str(out)]
    assert main(argv) == 0
    return out


def _flip_a_letter_of_a_memory(run: Path) -> None:
    """Change one letter inside a stored memory's text, in the file's bytes (SQLite's own check cannot see it)."""
    path = run / "memory.sqlite"
    data = bytearray(path.read_bytes())
    at = data.index(b'"description": "') + len(b'"description": "') + 2
    data[at] = ord("x") if data[at] != ord("x") else ord("y")
    path.write_bytes(bytes(data))


def _copy_in(name: str):
    def damage(run: Path, stranger: Path) -> None:
        for part in ("", "-wal", "-shm"):
            Path(f"{run / name}{part}").unlink(missing_ok=True)
            if Path(f"{stranger / name}{part}").is_file():
                shutil.copyfile(f"{stranger / name}{part}", f"{run / name}{part}")

    return damage


def _both_checkpoints_copied_in(run: Path, stranger: Path) -> None:
    for name in ("state.json", "previous.json"):
        shutil.copyfile(stranger / "checkpoint" / name, run / "checkpoint" / name)


# A file that is not the run's own, or changed where SQLite cannot see it: (how, the file named, what is said).
NOT_ITS_OWN = {
    "memory from another run": (_copy_in("memory.sqlite"), "memory.sqlite", "belongs to another run"),
    "events from another run": (_copy_in("events.sqlite"), "events.sqlite", "belongs to another run"),
    "checkpoints from another run": (_both_checkpoints_copied_in, "state.json", "belongs to another run"),
    "a letter flipped in a memory": (
        lambda run, _: _flip_a_letter_of_a_memory(run),
        "memory.sqlite",
        "differ from what the checkpoint recorded",
    ),
    "an event's text changed": (
        lambda run, _: _sql(run / "events.sqlite", "update events set text = text || '!' where id = 2"),
        "events.sqlite",
        "differ from what the checkpoint recorded",
    ),
}


@pytest.mark.parametrize("command", ["resume", "report"])
@pytest.mark.parametrize(("damage", "file", "words"), NOT_ITS_OWN.values(), ids=NOT_ITS_OWN.keys())
def test_a_file_not_the_runs_own_is_one_line_naming_it(run, stranger, damage, file, words, command, capsys):
    _wal_free(run)
    damage(run, stranger)
    line = one_line(capsys, [command, str(run)], 1)
    assert file in line and words in line


@pytest.mark.parametrize(("damage", "file", "words"), NOT_ITS_OWN.values(), ids=NOT_ITS_OWN.keys())
def test_a_look_at_a_run_checks_identity_cheaply_and_the_digests_only_where_damage_is_carried_on(
    run, stranger, damage, file, words
):
    """A replay, compare or interview reads the checkpoint without a pass over every row: a file of another run is
    still named, a changed value only by the full check that resume, fork and report make."""
    _wal_free(run)
    damage(run, stranger)
    if "belongs to another run" in words:
        with pytest.raises(RunFolderError, match="belongs to another run"):
            read_snapshot(RunFolder(run))
    else:
        assert read_snapshot(RunFolder(run)).now == datetime.fromisoformat(END)
    with pytest.raises(RunFolderError, match=words):
        read_snapshot(RunFolder(run), full=True)


@pytest.mark.slow  # resumes the run
def test_a_newest_checkpoint_from_another_run_is_named_and_the_previous_one_used(run, finished, stranger, capsys):
    shutil.copyfile(stranger / "checkpoint" / "state.json", run / "checkpoint" / "state.json")
    assert main(["resume", str(run)]) == 0
    err = capsys.readouterr().err
    assert "state.json: belongs to another run" in err and "using the previous checkpoint (2023-02-13 00:20)" in err
    assert events(run) == events(finished)
    assert final_state(run) == final_state(finished)
