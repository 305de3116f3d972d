"""One table of parameters: the model's signature, the CLI's defaults and the browser's controls all come from it."""

import inspect
from dataclasses import fields

import pytest

from agents import GatewayConfig, MindConfig
from agents.config import POSITIVE
from smallville.app.params import live_params
from smallville.cli import build_parser
from smallville.model import SmallvilleModel
from smallville.settings.parameters import BY_NAME, PARAMETERS, defaults, from_arguments, resolve
from smallville.settings.validation import SettingError, check_value


def test_every_mind_setting_is_a_parameter_with_mindconfigs_default():
    for item in fields(MindConfig):
        if item.name == "retrieval_weights":
            assert BY_NAME[item.name].default == "paper"
            continue
        assert BY_NAME[item.name].default == getattr(MindConfig(), item.name), item.name


def test_gateway_defaults_are_the_gateways():
    config = GatewayConfig()
    assert (BY_NAME["llm"].default, BY_NAME["max_in_flight"].default, BY_NAME["timeout"].default) == (
        config.model,
        config.max_in_flight,
        config.timeout_s,
    )


def test_the_models_signature_is_the_table():
    signature = inspect.signature(SmallvilleModel)
    declared = {name: p.default for name, p in signature.parameters.items() if name != "seed_memories"}
    assert declared == defaults()


@pytest.mark.parametrize("command", ["simulate", "serve"])
def test_the_cli_defaults_are_the_table(command):
    args = build_parser().parse_args([command])
    assert from_arguments(args) == defaults()


def test_every_flag_sets_its_parameter():
    args = build_parser().parse_args(
        ["simulate", "--seed", "3", "--no-reflection", "--reaction-memories", "4", "--recency-decay", "0.9",
         "--timeout", "5", "--quiet-hour", "22"]
    )  # fmt: skip
    kwargs = from_arguments(args)
    assert (kwargs["rng"], kwargs["reflection"], kwargs["reaction_memories"]) == (3, False, 4)
    assert (kwargs["recency_decay"], kwargs["timeout"], kwargs["quiet_hour"]) == (0.9, 5.0, 22)


def test_a_cognition_setting_reaches_the_agents_minds_and_the_gateway():
    model = SmallvilleModel(
        scenario_name="the_ville_n3", embedder="hashing", reaction_memories=4, recency_decay=0.9, timeout=5,
        seed_memories=False,
    )  # fmt: skip
    assert model.config.reaction_memories == 4 and model.gateway.config.timeout_s == 5
    assert all(agent.mind.config is model.config for agent in model.people)
    assert all(agent.memories.stream.recency_decay == 0.9 for agent in model.people)
    model.close()


def test_an_unknown_parameter_is_refused_like_any_keyword():
    with pytest.raises(TypeError, match="unknown parameters: chat_cooldown_steps"):
        resolve({"chat_cooldown_steps": 800})


def test_a_bad_value_is_refused_when_the_mind_is_built():
    with pytest.raises(ValueError, match="reaction_memories=0"):
        MindConfig(reaction_memories=0)


def test_the_browser_controls_are_the_tables_with_the_cli_names():
    params = live_params(defaults())
    controls = {name: spec["label"] for name, spec in params.items() if isinstance(spec, dict) and "label" in spec}
    for item in PARAMETERS:
        if item.control:
            assert controls[item.name] == item.label
    assert controls["rng"] == "seed" and controls["retrieval_weights"] == "retrieval weights"


def test_every_number_of_the_table_has_a_lower_and_an_upper_bound():
    numbers = [
        item for item in PARAMETERS if isinstance(item.default, int | float) and not isinstance(item.default, bool)
    ]
    numbers += [BY_NAME[name] for name in ("agents", "rng", "seconds_per_step", "max_calls", "max_cost")]
    for item in numbers:
        assert item.range is not None, item.name
        assert item.range.low <= item.range.high < float("inf"), item.name
        assert item.default is None or item.range.holds(item.default), item.name


def test_each_bound_is_where_the_flag_refuses_and_a_file_value_too():
    for item in PARAMETERS:
        bounds = item.range
        if bounds is None or item.name == "agents":
            continue
        beyond = int(bounds.high) + 1 if bounds.whole else bounds.high * 2
        assert check_value(item.name, bounds.high) == bounds.high, item.name
        with pytest.raises(SettingError):
            check_value(item.name, beyond)


def test_a_count_mindconfig_requires_to_be_positive_is_bounded_from_one():
    assert all(BY_NAME[name].range.low >= 1 for name in POSITIVE)
