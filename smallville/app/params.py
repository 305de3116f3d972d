"""SolaraViz's model controls: SmallvilleModel's keyword arguments, labelled with the CLI's flag names.

The values `run.py serve` was started with are the controls' initial values; the arguments without a control
(routes, API base, budget, cache) are passed through unchanged, so Reset builds the model the command asked for.
The seed is a slider: a text seed reaches Mesa as a string and breaks Reset (Mesa issue #3516).
"""

from smallville.scenario import available_scenarios, load_scenario

EMBEDDERS = ["minilm", "hashing"]
WEIGHTS = ["paper", "original"]
# The ablation switches, each a checkbox labelled like its CLI flag (--no-planning, ...).
CHECKBOXES = {"planning": "planning", "reflection": "reflection", "observation": "observation"}


def _with(values: list[str], value: str) -> list[str]:
    """A choice list that holds the current value even when it is not a preset."""
    return values if value in values else [*values, value]


def live_params(config: dict) -> dict:
    """SolaraViz's model_params for a live model started with `config` (SmallvilleModel keyword arguments)."""
    scenario = config.get("scenario_name", "the_ville_n25")
    agents = config.get("agents")
    largest = len(load_scenario(scenario).agents)
    params: dict = {
        "scenario_name": {
            "type": "Select",
            "value": scenario,
            "values": _with(available_scenarios(), scenario),
            "label": "scenario",
        },
        "llm": {"type": "InputText", "value": config.get("llm", "offline"), "label": "llm"},
        "embedder": {
            "type": "Select",
            "value": config.get("embedder", "minilm"),
            "values": _with(EMBEDDERS, config.get("embedder", "minilm")),
            "label": "embedder",
        },
        "rng": {
            "type": "SliderInt",
            "value": int(config.get("rng") or 0),
            "min": 0,
            "max": 99,
            "step": 1,
            "label": "seed",
        },
        "retrieval_weights": {
            "type": "Select",
            "value": config.get("retrieval_weights", "paper"),
            "values": _with(WEIGHTS, config.get("retrieval_weights", "paper")),
            "label": "retrieval weights",
        },
    }
    if isinstance(agents, list):
        params["agents"] = agents  # names given on the command line: fixed
    else:
        count = agents or largest
        params["agents"] = {"type": "SliderInt", "value": count, "min": 1, "max": largest, "step": 1, "label": "agents"}
    for name, label in CHECKBOXES.items():
        params[name] = {"type": "Checkbox", "value": bool(config.get(name, True)), "label": label}
    for name, value in config.items():
        params.setdefault(name, value)
    return params


def replay_params(run_folder: str) -> dict:
    """SolaraViz's model_params for a replay: the run folder (Reset reopens it, or another one typed in)."""
    return {"run_folder": {"type": "InputText", "value": run_folder, "label": "run folder"}}
