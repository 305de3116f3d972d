"""SolaraViz's model controls, derived from the parameter table (settings/parameters.py) under the CLI's names.

The values `run.py serve` was started with are the controls' initial values; the parameters without a control
(routes, API base, budget, cache, the cognition tunables) are passed through unchanged, so Reset builds the model
the command asked for. The seed is a slider: a text seed reaches Mesa as a string and breaks Reset (Mesa #3516).
"""

from smallville.scenarios.scenario import available_scenarios, load_scenario
from smallville.settings.parameters import BY_NAME, PARAMETERS, defaults

# The choices offered for the select controls (any other value given on the command line is added to them).
CHOICES = {
    "embedder": ["minilm", "hashing"],
    "retrieval_weights": ["paper", "original"],
}
# The seed slider's range.
SEEDS = (0, 99)


def _with(values: list[str], value: str) -> list[str]:
    """A choice list that holds the current value even when it is not a preset."""
    return values if value in values else [*values, value]


def _control(name: str, value) -> dict:
    parameter = BY_NAME[name]
    label = parameter.label if name != "scenario_name" else "scenario"
    if parameter.control == "checkbox":
        return {"type": "Checkbox", "value": bool(value), "label": label}
    if parameter.control == "slider":  # a seed given beyond the presets widens the slider: a slider clamps its value
        return {
            "type": "SliderInt",
            "value": int(value or 0),
            "min": SEEDS[0],
            "max": max(SEEDS[1], int(value or 0)),
            "step": 1,
            "label": label,
        }
    if parameter.control == "text":
        return {"type": "InputText", "value": value, "label": label}
    choices = available_scenarios() if name == "scenario_name" else CHOICES[name]
    return {"type": "Select", "value": value, "values": _with(choices, value), "label": label}


def live_params(config: dict) -> dict:
    """SolaraViz's model_params for a live model started with `config` (SmallvilleModel keyword arguments)."""
    values = {**defaults(), **config}
    params: dict = {
        item.name: _control(item.name, values[item.name]) for item in PARAMETERS if item.control is not None
    }
    agents = values["agents"]
    if isinstance(agents, list):
        params["agents"] = agents  # names given on the command line: fixed
    else:
        largest = len(load_scenario(values["scenario_name"]).agents)
        params["agents"] = {
            "type": "SliderInt",
            "value": agents or largest,
            "min": 1,
            "max": largest,
            "step": 1,
            "label": "agents",
        }
    for name, value in config.items():
        params.setdefault(name, value)
    return params


def replay_params(run_folder: str) -> dict:
    """SolaraViz's model_params for a replay: the run folder (Reset reopens it, or another one typed in)."""
    return {"run_folder": {"type": "InputText", "value": run_folder, "label": "run folder"}}
