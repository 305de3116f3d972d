"""Fuzzed doors: every parameter, every command's arguments, every field of the scenario, grid and battery files.

Hypothesis generates the values (testing/door_values.py: near every range's bounds, and hostile ones) and each door
must keep the contract (testing/door_checks.py): the value taken and honoured, or one line naming the door and the
fix; never a traceback, never silence, never a wait without a bound. A small fixed budget here (derandomized: the
same examples on every run); benchmarks/bench_fuzz_doors.py runs a large one and counts the violations by class.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smallville.settings.parameters import BY_NAME, PARAMETERS
from testing import door_checks, door_values

# Examples a door in CI: a few seconds each (a command's door costs 0.1-0.5 s an example in-process); the doors
# over ~2 s are marked slow (`make test` runs them).
CI = {"max_examples": 25, "deadline": None, "derandomize": True, "database": None,
      "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}  # fmt: skip
FOLDER: Path


@pytest.fixture(scope="module", autouse=True)
def _a_folder_to_knock_from(tmp_path_factory):
    """An empty current folder: nothing a command does with a relative path lands in the checkout."""
    global FOLDER  # noqa: PLW0603 - hypothesis's tests take no function-scoped fixture
    FOLDER = tmp_path_factory.mktemp("doors")
    before = Path.cwd()
    os.chdir(FOLDER)
    yield
    os.chdir(before)


# Every parameter with a flag; those whose check asks litellm (a model's name) in the slow test below.
MODEL_NAMES = ("llm", "routes", "embedder")
FLAGS = [parameter for parameter in PARAMETERS if parameter.parse is not None and parameter.name != "scenario_name"]


def _cases(items, strategy, name=lambda parameter: parameter.name):
    """(name, value) pairs: an item (a parameter, a field) drawn, then a value from its own strategy."""
    return st.sampled_from(items).flatmap(lambda item: strategy(item).map(lambda value: (name(item), value)))


@pytest.mark.slow
@settings(**{**CI, "max_examples": 30})
@given(_cases([p for p in FLAGS if p.name not in MODEL_NAMES], door_values.parameter_text))
def test_every_parameters_flag_honours_a_value_or_refuses_it_in_one_line(case):
    assert door_checks.parameter_flag(*case, FOLDER) is None


@pytest.mark.slow
@settings(**{**CI, "max_examples": 10})
@given(_cases([BY_NAME[name] for name in MODEL_NAMES], door_values.parameter_text))
def test_the_model_names_flags_honour_a_value_or_refuse_it_in_one_line(case):
    assert door_checks.parameter_flag(*case, FOLDER) is None


@pytest.mark.slow
@settings(**{**CI, "max_examples": 60})
@given(_cases(list(PARAMETERS), door_values.file_value))
def test_every_parameters_value_in_a_file_is_checked_within_its_range(case):
    assert door_checks.file_value(*case) is None


@pytest.mark.slow
@settings(**{**CI, "max_examples": 20})
@given(st.sampled_from(door_values.COMMANDS).flatmap(door_values.command_argv))
def test_every_commands_arguments_reach_its_work_or_one_line(argv):
    assert door_checks.command(argv) is None


@pytest.mark.slow
@settings(**{**CI, "max_examples": 15})
@given(_cases(list(door_values.SCENARIO_FIELDS), door_values.scenario_value, name=str))
def test_every_field_of_a_scenario_file_is_honoured_or_one_line(case):
    assert door_checks.scenario_field(*case, FOLDER) is None


@pytest.mark.slow
@settings(**{**CI, "max_examples": 12})
@given(door_values.grid_data())
def test_every_field_of_a_grid_file_is_planned_as_written_or_one_line(data):
    assert door_checks.grid_file(data, FOLDER) is None


@settings(**CI)
@given(door_values.battery_data())
def test_every_field_of_a_battery_file_is_read_as_written_or_one_line(data):
    assert door_checks.battery_file(data, FOLDER) is None
