"""The one declared table of a town's parameters: SmallvilleModel's keywords, the CLI's flags, the Solara controls.

Each parameter is declared once here, with its help and its group; its default is written once, where the value
belongs: the mind's in agents.MindConfig, the gateway's in agents.GatewayConfig, the town's own below. The model's
signature, `run.py simulate`'s options, `run.py serve`'s controls and batch grids are all derived from this table, so a
name means the same thing everywhere (as Mesa's Scenario shares its names with the app).
"""

import argparse
import inspect
import typing
from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, fields, replace
from typing import Any

from agents import REASONING_EFFORTS, GatewayConfig, MindConfig
from smallville.settings import model_option_types as model_check
from smallville.settings import option_types as check
from smallville.settings.ranges import RANGES, Range


@dataclass(frozen=True)
class Parameter:
    """One parameter of a town.

    Attributes:
        name: SmallvilleModel's keyword (and the Solara control's key, and a batch grid's key).
        default: Its default value.
        help: One line for `--help`.
        group: The CLI's heading: town, minds, ablations, cognition.
        flag: The CLI flag ("--seed" for rng: Mesa's name for a seed is rng).
        parse: Turns the flag's text into the value (argparse's `type`); None for switches.
        switch: "off" for a `--no-NAME` flag that turns a default-on feature off, "on" for a flag that turns one on.
        control: The Solara control: "select", "text", "slider", "checkbox", or None for no control.
    """

    name: str
    default: Any
    help: str
    group: str
    flag: str = ""
    parse: Callable[[str], Any] | None = None
    switch: str = ""
    control: str | None = None

    @property
    def range(self) -> Range | None:
        """The number's bounds (ranges.py), None for a parameter that is not a number (a name, a switch, a file)."""
        return RANGES.get(self.name)

    @property
    def takes_list(self) -> bool:
        """Whether a file may give the value as a list or a table.

        The model takes one (agents' names, routes, interventions), or the flag's text is a list ("1,2,1" weights).
        Any other parameter's list, [1, 2] for a seed or ["a", "b"] for an embedder, was joined into "1,2" or "a,b"
        and taken as a name.
        """
        annotation = _annotation(self)
        kinds = typing.get_args(annotation) or (annotation,)
        return self.name == "retrieval_weights" or any(typing.get_origin(kind) in (list, dict) for kind in kinds)

    @property
    def cli_flag(self) -> str:
        """The flag on the command line."""
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def label(self) -> str:
        """The control's label: the flag's name."""
        return self.cli_flag.removeprefix("--no-").removeprefix("--").replace("-", " ")


# The types of the town's own parameters; the mind's and the gateway's come from their records' fields.
_TYPES = {
    "scenario_name": str,
    "agents": int | list[str] | None,
    "rng": int | None,
    "seconds_per_step": int | None,
    "collect_every": int,
    "thinking_steps": int,
    "talk_thinking_steps": int,
    "llm": str,
    "routes": dict[str, str] | None,
    "api_base": str | None,
    "embedder": str,
    "cache_path": str | None,
    "embedding_cache": str | None,
    "replay": bool,
    "max_in_flight": int,
    "timeout": float,
    "structured_output": bool,
    "reasoning_effort": str,
    "max_calls": int | None,
    "max_cost": float | None,
    "retrieval_weights": str,
    "interventions": list[dict] | None,
}


def _annotation(item: "Parameter") -> Any:
    """The value's type in the model's signature (what batch grids validate against)."""
    if item.name in _TYPES:
        return _TYPES[item.name]
    return _field(MindConfig, item.name).type


def _mind(name: str) -> Any:
    return _field_default(MindConfig, name)


def _gateway(name: str) -> Any:
    return _field_default(GatewayConfig, name)


def _field(record: type, name: str) -> Field:
    (found,) = [item for item in fields(record) if item.name == name]
    return found


def _field_default(record: type, name: str) -> Any:
    found = _field(record, name)
    return found.default if found.default is not MISSING else found.default_factory()


# The town's own parameters and the gateway's.
_TOWN = (
    Parameter(
        "scenario_name",
        "the_ville_n25",
        "scenario name in data/scenarios/ or a path to one",
        "town",
        "--scenario",
        check.path_text,
        control="select",
    ),
    Parameter(
        "agents", None, '"all", a number (the first n), or comma-separated names', "town", parse=check.agents_value
    ),
    Parameter("rng", 0, "random seed", "town", "--seed", check.seed, control="slider"),
    Parameter(
        "seconds_per_step",
        None,
        "simulated seconds per step (the scenario's; the original's 10)",
        "town",
        parse=check.seconds_per_step,
    ),
    Parameter(
        "collect_every",
        6,
        "steps between two rows of the metrics (6: every simulated minute)",
        "town",
        parse=check.ranged("collect_every"),
    ),
    Parameter(
        "thinking_steps",
        20,
        "steps a thought takes: one started at step s that asks a model takes effect at the end of step s+N, one "
        "that asks none at the end of step s (0: the paper's lock-step, each step waits for every thought; 1 or "
        "more: the town keeps stepping while thoughts are in flight and waits less for a real model; 20 keeps "
        "lock-step's town within its spread between seeds: README, Thinking that overlaps time)",
        "town",
        parse=check.thinking_steps,
    ),
    Parameter(
        "talk_thinking_steps",
        0,
        "steps a thought of an agent in a talk takes (its line, or the talk's summary), counted as for "
        "--thinking-steps (0: at the end of its own step, as in lock-step, so 8 lines take 1.3 simulated minutes "
        "whatever --thinking-steps; the same N as --thinking-steps stretches a talk N-fold)",
        "town",
        parse=check.thinking_steps,
    ),
    Parameter(
        "interventions",
        None,
        "a file of interventions (TOML [[interventions]] or JSON): whispers, objects' states, broadcasts at set "
        "times (docs/interventions.md)",
        "town",
        parse=model_check.interventions_file,
    ),
    Parameter(
        "llm",
        _gateway("model"),
        (
            '"offline" (deterministic, free) or a litellm model name, e.g. openai/gpt-5.4-mini (`run.py models check` '
            "tells whether it can run a town)"
        ),
        "minds",
        parse=str,
        control="text",
    ),
    Parameter(
        "routes",
        None,
        "send request kinds to other models: kind=model[,kind=model]",
        "minds",
        "--route",
        model_check.routes_value,
    ),
    Parameter(
        "api_base", _gateway("api_base"), "base URL of an OpenAI-compatible, vLLM or ollama server", "minds", parse=str
    ),
    Parameter(
        "embedder",
        "minilm",
        '"minilm" (local), "hashing" (fast, for tests) or a litellm embedding model',
        "minds",
        parse=model_check.embedder_name,
        control="select",
    ),
    Parameter(
        "cache_path",
        _gateway("cache_path"),
        "response cache file (SQLite) to reuse",
        "minds",
        "--cache",
        check.cache_file,
    ),
    Parameter(
        "embedding_cache",
        None,
        "file (SQLite) keeping embeddings for later runs: a repeated day encodes only new texts",
        "minds",
        parse=check.cache_file,
    ),
    Parameter("replay", _gateway("replay"), "refuse any model call the cache cannot answer", "minds", switch="on"),
    Parameter(
        "max_in_flight",
        _gateway("max_in_flight"),
        "model calls in flight at once (1 for a single-slot local server)",
        "minds",
        parse=check.max_in_flight,
    ),
    Parameter(
        "structured_output",
        _gateway("structured"),
        "send only the prompt, not the answer's JSON schema (for a server that mishandles schemas)",
        "minds",
        switch="off",
    ),
    Parameter(
        "reasoning_effort",
        _gateway("reasoning_effort"),
        f"how much a reasoning model thinks before each answer: {', '.join(REASONING_EFFORTS)}; each model gets the "
        "nearest level it takes (minimal: as little as it allows, for a town's many short answers)",
        "minds",
        parse=model_check.reasoning_effort,
    ),
    Parameter(
        "timeout",
        _gateway("timeout_s"),
        "seconds a model call may take before it is retried (more for a slow local model)",
        "minds",
        parse=check.timeout,
    ),
    Parameter(
        "max_calls",
        _gateway("max_calls"),
        "stop cleanly after this many model calls (checked between steps: the step under way finishes)",
        "minds",
        parse=check.max_calls,
    ),
    Parameter(
        "max_cost",
        _gateway("max_cost"),
        "stop cleanly after this many dollars (checked between steps)",
        "minds",
        parse=check.max_cost,
    ),
)

_ABLATIONS = (
    Parameter("planning", _mind("planning"), "act without a day plan", "ablations", switch="off", control="checkbox"),
    Parameter("reflection", _mind("reflection"), "never reflect", "ablations", switch="off", control="checkbox"),
    Parameter(
        "observation",
        _mind("observation"),
        "do not store perceived events as memories",
        "ablations",
        switch="off",
        control="checkbox",
    ),
    Parameter(
        "retrieval_weights",
        "paper",
        'recency,relevance,importance: "paper" (1,1,1), "original" (0.5,3,2) or three numbers',
        "ablations",
        parse=check.retrieval_weights,
        control="select",
    ),
    Parameter(
        "reflection_threshold",
        _mind("reflection_threshold"),
        "importance that triggers a reflection: 'paper' (the paper's 150), 'data' (each persona's; 250 in the "
        "25-agent data: the default), or a number",
        "ablations",
        parse=model_check.reflection_threshold,
    ),
)

# Every other field of MindConfig is a parameter too, its help taken from MindConfig's docstring.
_SPECIAL = {parameter.name for parameter in _ABLATIONS}


def _mind_help(name: str) -> str:
    doc = inspect.getdoc(MindConfig) or ""
    lines = doc.split("Attributes:", 1)[-1].splitlines()
    for index, line in enumerate(lines):
        if line.strip().startswith(f"{name}:"):
            text = [line.split(":", 1)[1].strip()]
            for following in lines[index + 1 :]:
                if not following.startswith(" " * 8):
                    break
                text.append(following.strip())
            return " ".join(text).replace("%", "%%")
    return name.replace("_", " ")


def _cognition() -> tuple[Parameter, ...]:
    # Counts and durations are whole numbers within their ranges (ranges.py): at least 1 for the counts MindConfig
    # requires so (POSITIVE), else at least 0; each with the upper bound a prompt or a day can honour.
    special = {"recency_decay": check.share, "quiet_hour": check.hour}
    return tuple(
        Parameter(
            item.name,
            _mind(item.name),
            _mind_help(item.name),
            "cognition",
            parse=special.get(item.name) or check.ranged(item.name),
        )
        for item in fields(MindConfig)
        if item.name not in _SPECIAL
    )


PARAMETERS: tuple[Parameter, ...] = (*_TOWN, *_ABLATIONS, *_cognition())
BY_NAME: dict[str, Parameter] = {parameter.name: parameter for parameter in PARAMETERS}
MIND_SETTINGS = tuple(item.name for item in fields(MindConfig))
GROUPS = {
    "town": "town",
    "minds": "minds",
    "ablations": "ablations (the paper's section 6, end to end: the run itself changes)",
    "cognition": "cognition (every tunable of the mind, with where its value comes from)",
}


def defaults() -> dict[str, Any]:
    """Every parameter's default, by name."""
    return {parameter.name: parameter.default for parameter in PARAMETERS}


def resolve(settings: dict[str, Any]) -> dict[str, Any]:
    """The defaults with `settings` applied; an unknown name is a TypeError, as for any Python keyword.

    Raises:
        TypeError: If a name is not a parameter of the town.
    """
    unknown = sorted(set(settings) - set(BY_NAME))
    if unknown:
        raise TypeError(
            f"SmallvilleModel got unknown parameters: {', '.join(unknown)} (see smallville/settings/parameters.py)"
        )
    return {**defaults(), **settings}


def signature(extra: tuple[inspect.Parameter, ...] = ()) -> inspect.Signature:
    """SmallvilleModel's signature as the table declares it (what `help()`, SolaraViz and batch grids read)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters += [
        inspect.Parameter(item.name, keyword, default=item.default, annotation=_annotation(item)) for item in PARAMETERS
    ]
    return inspect.Signature([*parameters, *extra])


_METAVARS = {int: "N", float: "X"}


# The parameters `run.py batch` takes as flags, laid over a grid's [parameters] (the rest stay the grid's to set).
BATCH_FLAGS = ("agents", "embedder", "llm", "cache_path")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per parameter, grouped as the table groups them; every default is the table's."""
    _add(parser, PARAMETERS, keep_defaults=True)


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    """`run.py batch`'s flags of BATCH_FLAGS, the table's own, unset by default: a grid's value stays unless given."""
    _add(parser, [BY_NAME[name] for name in BATCH_FLAGS], keep_defaults=False)


def _add(parser: argparse.ArgumentParser, items: list[Parameter], keep_defaults: bool) -> None:
    groups = {name: parser.add_argument_group(title) for name, title in GROUPS.items()}
    for parameter in items:
        item = parameter if keep_defaults else replace(parameter, default=None)
        group = groups[item.group]
        shown = "" if item.default in (None, "") else f" (default: {item.default})"
        if item.switch == "off":
            flag = "--no-" + item.name.replace("_", "-")
            group.add_argument(flag, dest=item.name, action="store_false", default=item.default, help=item.help)
        elif item.switch == "on":
            group.add_argument(item.cli_flag, dest=item.name, action="store_true", default=item.default, help=item.help)
        else:
            metavar = _METAVARS.get(type(item.default), item.name.upper())
            group.add_argument(
                item.cli_flag,
                dest=item.name,
                type=item.parse,
                default=item.default,
                metavar=metavar,
                help=item.help + shown,
            )


def from_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The SmallvilleModel keyword arguments given on the command line."""
    return {item.name: getattr(args, item.name) for item in PARAMETERS}
