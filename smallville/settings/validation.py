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

from agents import MindConfig, check_embedder, check_models
from memory import RetrievalWeights, is_local_embedder
from smallville.baseline import is_offline
from smallville.interventions.records import InterventionError, parse_interventions
from smallville.scenarios.scenario import ScenarioError, load_scenario, scenario_file
from smallville.settings.option_types import MAX_DAYS
from smallville.settings.parameters import BY_NAME, MIND_SETTINGS, resolve
from smallville.town import town_map

__all__ = [
    "SettingError",
    "check_api_base",
    "check_end",
    "check_mind",
    "check_reachable",
    "check_town",
    "check_value",
    "check_values",
    "value_text",
]


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
    if isinstance(value, list | tuple | dict) and not item.takes_list:
        example = item.range.example if item.range is not None else item.default
        raise SettingError(name, f"{str(value)[:60]} is a list; give one value, e.g. {example!r}")
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
    check_mind(values)
    check_api_base(values)
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
    where = source or str(scenario_file(values["scenario_name"]))
    try:
        ville = town_map(setting)[0]
    except (ValueError, OSError) as error:  # a map folder missing or damaged: the scenario's field names it
        raise SettingError(
            "scenario_name", f"{where}: field 'map': {str(error).splitlines()[0]}; give a town's folder under data/"
        ) from None
    try:
        setting.check_map(ville, where)
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


def check_mind(values: dict[str, Any]) -> None:
    """What the mind's record refuses of values each within its own range: the rules between two settings.

    Each value passed its own range at its door; MindConfig also relates some (the shortest wait at most the longest),
    and refused them only once the town had loaded, after the run folder was made. Building the record here says it
    before anything is written.

    Raises:
        SettingError: Naming the first of the settings at fault.
    """
    values = resolve(values)
    if values["shortest_wait_minutes"] > values["longest_wait_minutes"]:
        raise SettingError(
            "shortest_wait_minutes",
            f"{values['shortest_wait_minutes']} minutes: more than --longest-wait-minutes "
            f"({values['longest_wait_minutes']}); give at most that, or raise --longest-wait-minutes",
        )
    mind = {item: values[item] for item in MIND_SETTINGS}
    try:
        MindConfig(**{**mind, "retrieval_weights": RetrievalWeights.parse(values["retrieval_weights"])})
    except (TypeError, ValueError) as error:
        named = next((item for item in MIND_SETTINGS if item in str(error)), "retrieval_weights")
        raise SettingError(named, str(error)) from None


def check_api_base(values: dict[str, Any]) -> None:
    """An --api-base only for a run that calls a server: on an offline run it was taken and silently unused.

    Raises:
        SettingError: If the settings name a server but every request goes to the offline mind and the embedder is
            local.
    """
    values = resolve(values)
    if values["api_base"] and is_offline(values["llm"], values["routes"]) and is_local_embedder(values["embedder"]):
        raise SettingError(
            "api_base",
            f"{values['api_base']}: the run is offline (--llm offline, --embedder {values['embedder']}) and calls no "
            "server; drop it, or name the server's model with --llm",
        )


def check_reachable(when: datetime, start: datetime, what: str) -> None:
    """A simulated time a run from `start` can reach: not before it, not beyond the longest run (MAX_DAYS).

    Raises:
        SettingError: Named `what`, if the time is outside that span.
    """
    if when < start:
        raise SettingError(
            what, f"{when:%Y-%m-%dT%H:%M}: before the scenario's start ({start:%Y-%m-%dT%H:%M}); give a later time"
        )
    if when - start > timedelta(days=MAX_DAYS):
        raise SettingError(
            what,
            f"{when:%Y-%m-%dT%H:%M}: more than {MAX_DAYS} days after the start, which no run reaches; give an "
            "earlier time",
        )


def check_end(
    start: datetime, until: datetime | None, days: float | None, seconds_per_step: int | None = None
) -> datetime:
    """The run's end: `until`, else the start plus `days`, within MAX_DAYS of the start and at least one step after.

    Args:
        start: The scenario's start.
        until: The end time given, if any.
        days: The days given, if any (1 without either).
        seconds_per_step: The run's step; an end less than one step after the start is a run of no step.

    Raises:
        SettingError: "until" or "days" if the end is not after the start, less than a step after it or too far.
    """
    if until is None:
        end = start + timedelta(days=days if days is not None else 1.0)
        if seconds_per_step and end - start < timedelta(seconds=seconds_per_step):
            raise SettingError(
                "days",
                f"{days:g} days: less than one step of {seconds_per_step} simulated seconds, so nothing would run; "
                f"give at least {seconds_per_step / 86400:.6f}",
            )
        return end
    if seconds_per_step and start < until < start + timedelta(seconds=seconds_per_step):
        raise SettingError(
            "until",
            f"{until:%Y-%m-%dT%H:%M:%S}: less than one step of {seconds_per_step} simulated seconds after the start "
            f"({start:%Y-%m-%dT%H:%M:%S}), so the run never reaches it; give a later time",
        )
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
