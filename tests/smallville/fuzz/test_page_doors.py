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


def test_a_refusal_names_the_control_and_the_fix_as_the_cli_words_it():
    """The page's words are the command line's: `run.py whisper` and the Whisper button refuse alike."""
    from smallville.app.voice import give, voice_error
    from smallville.settings.option_types import statement

    name = next(iter(PAGE.live.by_name))
    assert not give(PAGE.live, name, "bell\x07")
    try:
        statement("bell\x07")
    except Exception as error:
        assert voice_error.value == f"Inner voice: {error}"
    assert Path(PAGE.run_folder).is_dir()
