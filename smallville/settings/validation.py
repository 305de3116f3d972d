"""One validation for every way a setting enters: CLI flags, batch grids, a run's config.json, the model's keywords.

A value given as a flag is checked by its parameter's validator (smallville/settings/option_types.py, declared once in
settings/parameters.py). A value from a file (a grid's TOML, a run's config.json) is turned back into the text a
user would type and goes through the same validator, so `seed = -3` in a grid is refused with the very words
`--seed -3` is. What needs the scenario (how many agents it has, its map, its start) is checked by `check_town` and
`check_end`, which `simulate` and `batch` both call before anything runs: a grid whose cell the CLI would refuse
is refused before its first cell starts, naming the file and the key, instead of each cell failing on its own.

Each check raises SettingError, which carries the parameter's name: every entry says where the value came from in
its own words (a flag, a grid's key, a config field).
"""

import argparse
from datetime import datetime, timedelta
from typing import Any

from agents import check_embedder, check_models
from smallville.interventions.records import InterventionError, parse_interventions
from smallville.scenarios.scenario import ScenarioError, load_scenario, scenario_file
from smallville.settings.option_types import MAX_DAYS
from smallville.settings.parameters import BY_NAME, resolve
from smallville.town import town_map

__all__ = ["SettingError", "check_end", "check_town", "check_value", "check_values", "value_text"]


class SettingError(ValueError):
    """A setting that cannot be used.

    Attributes:
        name: The parameter's name (a SmallvilleModel keyword, or "until"/"days" for the run's end).
    """

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


def value_text(value: Any) -> str:
    """A value from a file as a user would type it after its flag: 1e9 -> "1000000000.0", [1, 2, 1] -> "1,2,1"."""
    if isinstance(value, bool):
        raise ValueError(f"{str(value).lower()} is a switch's value; give what the flag takes")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return ",".join(value_text(item) for item in value)
    if isinstance(value, dict):
        return ",".join(f"{key}={value_text(item)}" for key, item in value.items())
    return str(value)


def check_value(name: str, value: Any) -> Any:
    """The value of one parameter, checked (and converted) by the validator of its command-line flag.

    Raises:
        SettingError: With the validator's words.
    """
    item = BY_NAME[name]
    if value is None:  # unset: the parameter's default (every parameter that may be None defaults to None)
        if item.default is not None and not item.switch:
            raise SettingError(name, f"cannot be empty; give a value like {item.default!r}")
        return None
    if item.switch:
        if not isinstance(value, bool):
            raise SettingError(name, f"{value!r} is not true or false")
        return value
    if name == "interventions" and isinstance(value, list):  # already read from its file (a run's config)
        try:
            return [entry.model_dump(mode="json") for entry in parse_interventions(value, name)]
        except InterventionError as error:
            raise SettingError(name, str(error).removeprefix(f"{name}: ")) from None
    try:
        return item.parse(value_text(value))
    except (argparse.ArgumentTypeError, ValueError) as error:
        raise SettingError(name, str(error)) from None


def check_values(values: dict[str, Any]) -> dict[str, Any]:
    """`check_value` for each of these parameters; an unknown name is a SettingError too."""
    checked = {}
    for name, value in values.items():
        if name not in BY_NAME:
            raise SettingError(name, "unknown parameter; see `run.py simulate --help` for the names")
        checked[name] = check_value(name, value)
    return checked


def check_town(settings: dict[str, Any], source: str = ""):
    """What only the scenario can tell: its agents, its map, the models the settings name. Returns the scenario.

    Args:
        settings: SmallvilleModel keywords (unset ones take their defaults).
        source: Where the scenario was named, for a fault in the scenario file itself.

    Raises:
        SettingError: Naming the parameter at fault.
    """
    values = resolve(settings)
    try:
        check_models(values["llm"], values["routes"], values["api_base"])
    except ValueError as error:
        raise SettingError("routes" if "llm" not in settings and values["routes"] else "llm", str(error)) from None
    try:
        check_embedder(values["embedder"], values["api_base"])
    except ValueError as error:
        raise SettingError("embedder", str(error)) from None
    try:
        scenario = load_scenario(values["scenario_name"])
    except ScenarioError as error:
        raise SettingError("scenario_name", str(error)) from None
    try:
        setting = scenario.select(values["agents"])
    except ScenarioError as error:
        raise SettingError("agents", str(error)) from None
    ville = town_map(setting)[0]
    try:
        setting.check_map(ville, source or str(scenario_file(values["scenario_name"])))
    except ScenarioError as error:
        raise SettingError("scenario_name", str(error)) from None
    widest = max(ville.width, ville.height)
    if values["vision_radius"] > widest:
        raise SettingError(
            "vision_radius",
            f"{values['vision_radius']} tiles: more than the map's {ville.width} x {ville.height}; give at most "
            f"{widest} (the paper's agents see 8)",
        )
    return setting


def check_end(start: datetime, until: datetime | None, days: float | None) -> datetime:
    """The run's end: `until`, else the start plus `days`, within MAX_DAYS of the start.

    Raises:
        SettingError: "until" if it is not after the start or too far after it.
    """
    if until is None:
        return start + timedelta(days=days if days is not None else 1.0)
    if until <= start:
        raise SettingError(
            "until",
            f"{until:%Y-%m-%dT%H:%M}: not after the scenario's start ({start:%Y-%m-%dT%H:%M}); give a later time",
        )
    if until - start > timedelta(days=MAX_DAYS):
        raise SettingError(
            "until", f"{until:%Y-%m-%dT%H:%M}: more than {MAX_DAYS} days after the start; give an earlier time"
        )
    return until
