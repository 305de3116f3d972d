"""Forks: a run kept at checkpoints, forked at a moment with a change, replays its past exactly and differs only after.

The fork's contract: with no change it reproduces its source (event log, metrics, final checkpoint), at no model
call when the source's answers are cached; with a change it equals its source before the change's moment.
"""

import json
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from memory import MemoryStore
from smallville.cli import main
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import RUN_KEYS, model_settings
from testing import LoopbackServer
from tests.smallville.killing import log_outcome, run_killed, writes_of
from tests.smallville.run_folders import FAST, events, final_state, metrics, simulated

DAY = [*FAST, "--until", "2023-02-13T10:00", "--seconds-per-step", "30"]
AT = "2023-02-13T08:20"
KLAUS = "Klaus Mueller"
LIBRARY = "The library closes early on Friday"


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A morning kept every 40 minutes (off the hourly checkpoints), to fork from."""
    return simulated(tmp_path_factory.mktemp("fork") / "source", *DAY, "--keep-checkpoints", "every 40m")


def before(entries: list[tuple], moment: str) -> list[tuple]:
    return [entry for entry in entries if entry[0] < moment]


@pytest.mark.slow  # simulates or forks a run
def test_keeping_checkpoints_does_not_change_the_run(source, tmp_path):
    plain = tmp_path / "plain"
    assert main(["simulate", *DAY, "--out", str(plain)]) == 0
    assert events(plain) == events(source) and metrics(plain) == metrics(source)
    kept = sorted(path.stem for path in (source / "checkpoint" / "kept").glob("*.json"))
    assert kept == [f"20230213T{hour:02d}{minute:02d}00" for hour, minute in
                    [(0, 0), (0, 40), (1, 20), (2, 0), (2, 40), (3, 20), (4, 0), (4, 40), (5, 20), (6, 0), (6, 40),
                     (7, 20), (8, 0), (8, 40), (9, 20), (10, 0)]]  # fmt: skip


@pytest.mark.slow  # simulates or forks a run
def test_a_fork_with_no_change_reproduces_its_source(source, tmp_path):
    fork = tmp_path / "fork"
    assert main(["fork", str(source), "--at", AT, "--out", str(fork)]) == 0
    assert events(fork) == events(source)
    assert metrics(fork) == metrics(source)
    assert final_state(fork) == final_state(source)
    config = json.loads((fork / "config.json").read_text())
    assert config["forked_from"] == {"run": str(source), "at": f"{AT}:00", "changes": [], "parameters": {}}


@pytest.mark.slow  # simulates or forks a run
def test_a_fork_with_a_whisper_differs_only_from_its_moment(source, tmp_path):
    fork = tmp_path / "whisper"
    assert main(["fork", str(source), "--at", AT, "--out", str(fork), "--whisper", KLAUS, LIBRARY]) == 0
    assert before(events(fork), AT) == before(events(source), AT)
    changed = [entry for entry in events(fork) if entry not in events(source)]
    assert changed[0] == (f"{AT}:00", KLAUS, "intervention", LIBRARY)
    with MemoryStore(fork / "memory.sqlite") as store:
        texts = [node.description for node in store.load(KLAUS)]
    assert LIBRARY in texts


@pytest.mark.slow  # simulates or forks a run
def test_a_fork_with_new_parameters_keeps_them_from_its_moment_on(source, tmp_path):
    fork = tmp_path / "ablated"
    assert main(["fork", str(source), "--at", AT, "--out", str(fork), "--thinking-steps", "0"]) == 0
    config = json.loads((fork / "config.json").read_text())
    assert config["thinking_steps"] == 0 and config["forked_from"]["parameters"] == {"thinking_steps": 0}
    assert before(events(fork), AT) == before(events(source), AT)
    assert events(fork) != events(source)


REFUSED = {
    "after the last checkpoint": (["--at", "2023-02-13T11:00"], "after the run's last checkpoint"),
    "another town": (["--at", AT, "--scenario", "the_ville_n25"], "--scenario: a fork keeps its run's town"),
    "an unknown agent": (["--at", AT, "--whisper", "Sam Moore", "hi"], "no agent named 'Sam Moore'"),
    "a wrong object": (["--at", AT, "--set", "the Ville:Hobbs Cafe:cafe:pianno", "on fire"], "the nearest"),
}


@pytest.mark.slow  # simulates or forks a run
@pytest.mark.parametrize("argv, expected", REFUSED.values(), ids=list(REFUSED))
def test_a_fork_that_cannot_be_made_is_one_line_and_leaves_no_folder(source, tmp_path, capsys, argv, expected):
    fork = tmp_path / "refused"
    assert main(["fork", str(source), "--out", str(fork), *argv]) == 1
    error = capsys.readouterr().err.strip()
    assert expected in error and error.count("\n") == 0
    assert not fork.exists()


def test_a_fork_inside_its_source_is_refused_before_anything_is_copied(source, capsys):
    inside = source / "my-fork"
    assert main(["fork", str(source), "--out", str(inside), "--at", AT]) == 1
    error = capsys.readouterr().err.strip()
    assert "inside the run it comes from" in error and error.count("\n") == 0
    assert not inside.exists()


@pytest.mark.slow  # simulates or forks a run
def test_a_run_that_keeps_no_checkpoints_forks_only_at_its_last(tmp_path, capsys):
    plain = tmp_path / "plain"
    assert main(["simulate", *FAST, "--until", "2023-02-13T01:00", "--out", str(plain)]) == 0
    assert main(["fork", str(plain), "--at", "2023-02-13T00:30", "--out", str(tmp_path / "early")]) == 1
    assert "--keep-checkpoints" in capsys.readouterr().err
    fork = tmp_path / "last"
    argv = ["fork", str(plain), "--at", "2023-02-13T01:00", "--out", str(fork), "--until", "2023-02-13T01:30"]
    assert main(argv) == 0
    assert events(fork)[: len(events(plain))] == events(plain)
    assert RunFolder(fork).exists()


@pytest.mark.slow
def test_a_fork_of_a_cached_real_model_run_costs_no_call_and_replays_it(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    cache = tmp_path / "cache.sqlite"
    with LoopbackServer() as server:
        real = ["--llm", "openai/loopback", "--api-base", server.url, "--cache", str(cache)]
        argv = [*FAST, "--until", "2023-02-13T08:00", "--seconds-per-step", "60", *real]
        source = tmp_path / "source"
        assert main(["simulate", *argv, "--keep-checkpoints", "every 1h", "--out", str(source)]) == 0
        made = server.stats.requests
        assert made > 10
        fork = tmp_path / "fork"
        assert main(["fork", str(source), "--at", "2023-02-13T07:30", "--out", str(fork)]) == 0
        assert server.stats.requests == made  # the shared past and the unchanged future: all from the cache
        assert events(fork) == events(source)
        forked, original = final_state(fork), final_state(source)
        forked_calls, original_calls = forked.pop("covered_calls"), original.pop("covered_calls")
        assert forked == original
        asked = lambda calls: sorted((call["agent"], call["kind"]) for call in calls)  # noqa: E731 - in arrival order
        assert asked(forked_calls) == asked(original_calls)
        assert sum(call["calls"] for call in forked_calls) < sum(call["calls"] for call in original_calls)
        whisper = tmp_path / "whisper"
        argv = ["fork", str(source), "--at", "2023-02-13T07:30", "--out", str(whisper), "--whisper", KLAUS, LIBRARY]
        assert main(argv) == 0
        assert server.stats.requests > made  # the whisper's importance, and what follows from it
    assert before(events(whisper), "2023-02-13T07:30") == before(events(source), "2023-02-13T07:30")


@pytest.mark.slow  # simulates or forks a run
def test_a_fork_replays_its_sources_interventions_before_and_after_its_moment(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(f'[[interventions]]\ntime = 2023-02-13T07:40:00\nkind = "whisper"\ntarget = "{KLAUS}"\n'
                    f'text = "{LIBRARY}"\n')  # fmt: skip
    source = tmp_path / "source"
    argv = [*FAST, "--until", "2023-02-13T08:30", "--seconds-per-step", "30", "--keep-checkpoints", "every 1h"]
    assert main(["simulate", *argv, "--interventions", str(plan), "--out", str(source)]) == 0
    shelf = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
    assert main(["set", str(source), shelf, "on fire", "--at", "2023-02-13T08:45"]) == 0
    assert main(["whisper", str(source), KLAUS, "Water the plants"]) == 0  # at 08:30, after the kept 08:00
    assert main(["resume", str(source), "--until", "2023-02-13T09:00"]) == 0
    fork = tmp_path / "fork"
    assert main(["fork", str(source), "--at", "2023-02-13T07:30", "--out", str(fork)]) == 0
    assert [entry for entry in events(fork) if entry[2] == "intervention"] == [
        ("2023-02-13T07:40:00", KLAUS, "intervention", LIBRARY),
        ("2023-02-13T08:30:00", KLAUS, "intervention", "Water the plants"),
        ("2023-02-13T08:45:00", "", "intervention", "the shelf is on fire"),
    ]
    assert events(fork) == events(source)


@pytest.mark.slow  # simulates or forks a run
def test_a_forks_own_keys_never_reach_the_model(source, tmp_path):
    fork = tmp_path / "fork"
    assert main(["fork", str(source), "--at", AT, "--out", str(fork), "--until", "2023-02-13T09:00"]) == 0
    config = json.loads((fork / "config.json").read_text())
    assert {"forked_from", "keep_checkpoints", "end", "checkpoint_minutes"} <= set(config)
    assert not set(model_settings(config)) & set(RUN_KEYS)
    assert main(["interview", str(fork), KLAUS, "How are you?"]) == 0  # rebuilt from the fork's config


def test_a_source_whose_event_log_has_another_layout_is_one_line_naming_it(source, tmp_path, capsys):
    copy = tmp_path / "old"
    shutil.copytree(source, copy)
    with sqlite3.connect(copy / "events.sqlite") as db:
        db.execute("alter table calls drop column cached_tokens")  # as a version before that column wrote it
    assert main(["fork", str(copy), "--at", AT, "--out", str(tmp_path / "fork")]) == 1
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "events.sqlite: the calls table has columns" in error


# A fork that both whispers and changes a parameter, from a kept checkpoint before its moment: it replays, writes a
# checkpoint at its moment, changes its config, rebuilds, and only then stores its change with its first usable
# checkpoint. Killed at each of those steps, it must resume with its change or refuse in one line.
NIGHT = [*FAST, "--until", "2023-02-13T01:00", "--seconds-per-step", "30", "--keep-checkpoints", "every 20m"]
NIGHT_FORK = ["--at", "2023-02-13T00:50", "--until", "2023-02-13T01:10", "--whisper", KLAUS, LIBRARY,
              "--thinking-steps", "0"]  # fmt: skip
KILLED_AT = {
    "config written, nothing copied": ("smallville.runs.fork:_copy_files", 1),
    "files copied, before the model": ("smallville.commands.fork:build_model", 1),
    "checkpoint at its moment, before the config": ("smallville.runs.store:RunStore.update_config", 1),
    "config changed, before its change is stored": ("smallville.commands.fork:build_model", 2),
    "after its first checkpoint": ("smallville.commands.fork:_run_to_end", 1),
}


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> tuple[Path, Path, int]:
    """A night kept every 20 minutes, its uninterrupted fork, and how many writes that fork made."""
    root = tmp_path_factory.mktemp("night")
    assert main(["simulate", *NIGHT, "--out", str(root / "source")]) == 0
    writes = writes_of(["fork", str(root / "source"), *NIGHT_FORK, "--out", str(root / "fork")])
    return root / "source", root / "fork", writes


def _resumes_with_its_change_or_refuses(fork: Path, whole: Path, source: Path, capsys, *, again: bool = True) -> str:
    """Resume a killed fork: the whole fork's end, or one line; then (if `again`) forking again gives the whole fork."""
    capsys.readouterr()
    if not (fork / "config.json").is_file():
        outcome = "refused: no config"
    elif main(["resume", str(fork)]) == 0:
        assert events(fork) == events(whole) and final_state(fork) == final_state(whole)
        return "resumed with its change"
    else:
        error = capsys.readouterr().err.strip()
        assert error.count("\n") == 0 and "Traceback" not in error, error
        assert "delete the folder and run the fork again" in error, error
        outcome = "refused"
    if not again:
        return outcome
    shutil.rmtree(fork, ignore_errors=True)
    assert main(["fork", str(source), *NIGHT_FORK, "--out", str(fork)]) == 0
    assert events(fork) == events(whole) and final_state(fork) == final_state(whole)
    return outcome


@pytest.mark.slow
@pytest.mark.parametrize("target", KILLED_AT.values(), ids=list(KILLED_AT))
def test_a_fork_killed_while_being_made_resumes_with_its_change_or_refuses(night, tmp_path, capsys, target):
    source, whole, _ = night
    assert any(entry[2] == "intervention" for entry in events(whole))
    fork = tmp_path / "fork"
    assert run_killed(["fork", str(source), *NIGHT_FORK, "--out", str(fork)], at_call=target)
    again = target == KILLED_AT["config written, nothing copied"]  # the same fork again, once: it is exact
    outcome = _resumes_with_its_change_or_refuses(fork, whole, source, capsys, again=again)
    log_outcome(f"fork: killed at {target[0]} call {target[1]}: {outcome}")
    if target == KILLED_AT["after its first checkpoint"]:
        assert outcome == "resumed with its change"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(int(os.environ.get("SMALLVILLE_KILL_SEEDS", "1"))))
def test_a_fork_killed_at_a_random_write_resumes_with_its_change_or_refuses(night, tmp_path, capsys, seed):
    source, whole, writes = night
    at_write = random.Random(seed).randint(1, writes)
    fork = tmp_path / "fork"
    killed = run_killed(["fork", str(source), *NIGHT_FORK, "--out", str(fork)], at_write=at_write)
    outcome = _resumes_with_its_change_or_refuses(fork, whole, source, capsys) if killed else "ended first"
    log_outcome(f"fork: killed at write {at_write} of {writes}: {outcome}")
