"""The app's controls are the model's keyword arguments under the CLI's names, and Reset builds that model."""

import inspect

import pytest
from mesa.visualization.solara_viz import _check_model_params, split_model_params

from smallville.app.page import build_model
from smallville.app.params import live_params, replay_params
from smallville.app.town_choice import slider_values
from smallville.cli import build_parser
from smallville.commands.serve import settings_for, solara_command
from smallville.model import SmallvilleModel


def reset_kwargs(params: dict) -> dict:
    """What SolaraViz's Reset passes to the model: each control's value, and the fixed values as they are."""
    controls, fixed = split_model_params(params)
    return {**fixed, **{name: options["value"] for name, options in controls.items()}}


def test_serve_options_become_the_controls_initial_values_and_reset_rebuilds_that_model():
    args = build_parser().parse_args(
        [
            "serve",
            "--scenario",
            "the_ville_n3",
            "--agents",
            "2",
            "--embedder",
            "hashing",
            "--seed",
            "7",
            "--no-reflection",
        ]
    )
    settings = settings_for(args)
    params = live_params(settings["model"])
    assert set(params) == set(settings["model"])
    assert set(params) <= set(inspect.signature(SmallvilleModel.__init__).parameters)
    _check_model_params(SmallvilleModel.__init__, params)
    controls, _ = split_model_params(params)
    assert {name: options["label"] for name, options in controls.items()} == {
        "scenario_name": "scenario",
        "agents": "agents",
        "llm": "llm",
        "embedder": "embedder",
        "rng": "seed",
        "retrieval_weights": "retrieval weights",
        "planning": "planning",
        "reflection": "reflection",
        "observation": "observation",
    }
    assert controls["rng"]["type"] == "SliderInt"  # a text seed breaks Mesa's Reset (#3516)
    kwargs = reset_kwargs(params)
    assert kwargs == settings["model"]
    model = SmallvilleModel(**kwargs)
    assert [agent.name for agent in model.people] == ["Isabella Rodriguez", "Maria Lopez"]
    assert model.seed == 7 and model.config.reflection is False
    model.close()


def test_a_seed_beyond_the_sliders_presets_widens_it_instead_of_being_shown_as_another():
    """`serve --seed 12345`: the slider showed 99 (its end) while a new town took 12345."""
    slider = live_params({"scenario_name": "the_ville_n3", "rng": 12345})["rng"]
    assert slider["value"] == 12345 and slider["min"] <= 12345 <= slider["max"]
    assert live_params({"scenario_name": "the_ville_n3", "rng": 7})["rng"]["max"] == 99


def test_agents_named_on_the_command_line_stay_fixed():
    args = build_parser().parse_args(["serve", "--scenario", "the_ville_n3", "--agents", "Maria Lopez,Klaus Mueller"])
    params = live_params(settings_for(args)["model"])
    assert params["agents"] == ["Maria Lopez", "Klaus Mueller"]


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_a_replay_reset_reopens_the_run_folder(run_folder):
    params = replay_params(str(run_folder))
    model = build_model({"replay": reset_kwargs(params)["run_folder"]})
    assert model.frames == 14 * 60 + 1
    model.close()


def test_the_server_listens_on_loopback_without_version_check_or_telemetry():
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1"
    command = solara_command(args.host, args.port)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert "--no-check-version" in command and "--production" in command


def test_the_dialog_says_each_sliders_value():
    adjustable, _ = split_model_params(live_params({"scenario_name": "the_ville_n3", "rng": 7}))
    assert slider_values(adjustable, {"rng": 7, "agents": 3}) == "Chosen: seed 7, agents 3"
