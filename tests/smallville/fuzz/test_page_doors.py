"""Fuzzed doors of the page: every control's handler given generated values, in-process (no browser).

Each control keeps the contract the command line's doors keep (testing/page_doors.py): the value queued and
honoured, or one line in its box and nothing queued; never an exception, never silence. A small fixed budget here
(derandomized); benchmarks/bench_fuzz_doors.py --page runs a large one and counts violations by class.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smallville.cli import main
from testing.page_doors import Page, doors

CI = {"max_examples": 25, "deadline": None, "derandomize": True, "database": None,
      "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}  # fmt: skip
PAGE: Page
DOORS: dict


@pytest.fixture(scope="module", autouse=True)
def _a_page(tmp_path_factory):
    """A live three-agent town, and the replay of half an hour of the same town (run by `run.py simulate`)."""
    global PAGE, DOORS  # noqa: PLW0603 - hypothesis's tests take no function-scoped fixture
    from smallville.app.replay import ReplayModel
    from smallville.model import SmallvilleModel

    run = tmp_path_factory.mktemp("page") / "run"
    argv = ["simulate", "--scenario", "the_ville_n3", "--embedder", "hashing", "--until", "2023-02-13T00:30"]
    assert main([*argv, "--out", str(run)]) == 0
    live = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    PAGE = Page(live, ReplayModel(str(run)), str(run))
    DOORS = doors(PAGE)
    yield
    live.close()
    PAGE.replay.close()


def _door(name: str):
    """A test of one door: its strategy drawn lazily (it needs the page), its check asserted to hold."""

    @settings(**CI)
    @given(data=st.data())
    def test(data):
        strategy, check = DOORS[name]
        value = data.draw(strategy)
        assert check(value) is None

    return test


test_the_interview_box_asks_or_refuses_in_one_line = _door("interview (question, ask as)")
test_the_whisper_box_gives_the_memory_or_refuses_in_one_line = _door("whisper")
test_the_world_box_sets_the_object_or_refuses_in_one_line = _door("set an object (object, state)")
test_joining_takes_the_name_persona_and_place_or_refuses_in_one_line = _door("join (name, persona, place)")
test_a_players_line_is_said_or_refused_in_one_line = _door("say (agent, line)")
test_run_to_on_a_live_town_runs_to_that_time_or_refuses_in_one_line = _door("run to (live)")
test_run_to_on_a_replay_jumps_there_or_refuses_in_one_line = _door("run to (replay)")
test_the_speed_list_takes_its_speeds_only = _door("speed")
test_the_replay_slider_moves_to_a_recorded_row_or_refuses = _door("replay position")
test_a_new_towns_settings_pass_the_flags_checks_or_one_line = _door("new town settings")
test_a_replays_run_folder_is_opened_or_refused_in_one_line = _door("replay folder")


def _handlers():
    """Each control's handler on one value, for the named cases below: (call it, the box its refusal shows in)."""
    import solara

    from smallville.app import controls, player_box, replay_controls, town_choice, voice, world_box
    from smallville.app.work import work_of

    live, replay = PAGE.live, PAGE.replay
    name = next(iter(live.by_name))
    speed = solara.Reactive(controls.DEFAULT_SPEED)
    model, parameters = solara.Reactive(live), solara.Reactive({})
    base = {"scenario_name": "the_ville_n3", "embedder": "hashing"}
    return {
        "whisper": (lambda v: voice.give(live, name, v), voice.voice_error),
        "interview": (lambda v: voice.ask(live, name, v, ""), voice.voice_error),
        "ask as": (lambda v: voice.ask(live, name, "Are you well?", v), voice.voice_error),
        "set": (lambda v: world_box.set_object(live, v, "burning"), world_box.world_error),
        "join": (lambda v: player_box.join_town(live, v, "", "", name), player_box.player_error),
        "join at": (lambda v: player_box.join_town(live, "Visitor", "", v, name), player_box.player_error),
        "run to": (lambda v: controls.run_to(live, work_of(live), speed, v), work_of(live).failure),
        "run to (replay)": (lambda v: controls.run_to(replay, work_of(replay), speed, v), work_of(replay).failure),
        "speed": (lambda v: controls.choose_speed(work_of(live), speed, v), work_of(live).failure),
        "replay position": (lambda v: replay_controls.seek_to(replay, v), work_of(replay).failure),
        "new town": (lambda v: town_choice.start_new_town(model, parameters, {**base, **v}), town_choice.choice_error),
        "replay folder": (lambda v: town_choice.open_replay(model, parameters, v), town_choice.choice_error),
    }


# The violations the fuzzing found, each a class: (the control, a value, words of the one line it now shows). Before,
# each was a traceback in the server's log with a vague line in the box ("1 validation error for Intervention"), an
# exception in the background work, or silence (the value clamped, replaced, or the work doing nothing).
FOUND = {
    "a whisper with control characters (was: a validation traceback)": ("whisper", "bell\x07", "control characters"),
    "a whisper too long (was: a validation traceback)": ("whisper", "a" * 2001, "more than 2000"),
    "an interview question too long (was: asked unchecked)": ("interview", "why? " * 600, "more than 2000"),
    "an invisible persona (was: taken)": ("ask as", "\u200b\u200b", None),
    "an object not of the map (was: a validation traceback)": ("set", "the Ville:nowhere", "not an object"),
    "an agent's name as the player's (was: a traceback in the work)": ("join", "Isabella Rodriguez", "an agent"),
    "a place not in the town (was: a traceback in the work)": ("join at", "Atlantis", "no place named"),
    "run to a time with a time zone (was: a TypeError in the work)": ("run to", "2023-02-13T09:00+01:00", "time zone"),
    "run to a time already past (was: silence)": ("run to", "2023-02-12 09:00", "before the scenario's start"),
    "run to the time the town is at (was: silence)": ("run to", "2023-02-13 00:00", "already"),
    "run to beyond the longest run (was: stepping for a year)": ("run to", "2025-02-13 09:00", "more than 365 days"),
    "run a replay beyond its end (was: clamped silently)": ("run to (replay)", "2023-02-13 09:00", "the run recorded"),
    "a speed not in the list (was: 15 min/s silently)": ("speed", "1000 min/s", "not one of the speeds"),
    "a replay row past the end (was: clamped silently)": ("replay position", 10_000, "out of range"),
    "a negative seed (was: a ValueError building the town)": ("new town", {"rng": -1}, "seed"),
    "more agents than the scenario has (was: a ScenarioError building it)": ("new town", {"agents": 99}, "agents"),
    "an embedder the agents cannot build (was: a ValueError building it)": ("new town", {"embedder": "foo"}, "unknown"),
    "a list for a one-value setting (was: joined into 'a,b')": ("new town", {"embedder": ["a", "b"]}, "is a list"),
    "a missing run folder (was: a traceback in the work)": ("replay folder", "/nonexistent/run", "not a run folder"),
}


@pytest.mark.parametrize(("control", "value", "words"), FOUND.values(), ids=FOUND.keys())
def test_each_violation_found_is_one_line_in_its_box_and_nothing_queued(control, value, words):
    from testing.page_doors import captured_jobs

    handler, box = _handlers()[control]
    box.set("")
    with captured_jobs() as jobs:
        taken = handler(value)
    assert not taken and not jobs
    assert box.value and len(box.value.splitlines()) == 1
    assert words is None or words in box.value, box.value


def test_a_refusal_names_the_control_and_the_fix_as_the_cli_words_it():
    """The page's words are the command line's: `run.py whisper` and the Whisper button refuse alike."""
    from smallville.app.voice import give, voice_error
    from smallville.settings.option_types import statement

    with pytest.raises(Exception, match="control characters") as refused:
        statement("bell\x07")
    assert not give(PAGE.live, next(iter(PAGE.live.by_name)), "bell\x07")
    assert voice_error.value == f"Inner voice: {refused.value}"


def test_the_cli_refuses_an_embedder_it_cannot_build_at_the_flag(capsys):
    """`simulate --embedder foo` was taken by every check and failed only once the town was built, its folder made."""
    out = Path(PAGE.run_folder).parent / "never"
    assert main(["simulate", "--scenario", "the_ville_n3", "--embedder", "foo", "--out", str(out)]) == 2
    assert "unknown embedder 'foo'" in capsys.readouterr().err and not out.exists()
