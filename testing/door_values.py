"""Values to knock on the doors with: hypothesis strategies for every parameter, command, and file of the town.

Each strategy mixes the plausible (values near a range's bounds, the names a parameter takes) with the hostile (empty
and invisible texts, NaN, 1e309, full-width digits, control characters, huge numbers, paths to folders and devices,
time zones), so a door's check is tried on both sides of every line it draws. `toml` writes a grid or a battery as
the user would (no TOML writer is a dependency).
"""

import json
import math
from datetime import datetime
from typing import Any

from hypothesis import strategies as st

from smallville.settings.ranges import RANGES

HOSTILE = (
    "", " ", "\u200b", "\ufeff", "-1", "0", "1", "1.5", "1e9", "1e309", "-1e309", "nan", "inf", "1_000", "\uff11\uff12",
    "\u00b2", "0x10", "2023-02-13T08:00", "2023-02-13T08:00+01:00", "99999999999999999999", "x" * 3000, "a,b",
    "all", ",", "=", "/", "/dev/null", "/proc/1/mem", "~", "..", "caf\udce9", "line\nbreak", "tab\tbed", "nul\x00",
    "bell\x07", "offline", "hashing", "paper", "original", "1,2,1", "0,0,0", "Klaus Mueller", "every 1h", "every 0m",
)  # fmt: skip


def _not_an_option(text: str) -> bool:
    """Whether argparse takes `text` as a value (a word like -h or --x would be read as an option, --help exit 0)."""
    if not text.startswith("-"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def hostile_text() -> st.SearchStrategy[str]:
    """Any text a user might type or paste after a flag."""
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=40),
        st.integers(min_value=-(10**20), max_value=10**20).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    ).filter(_not_an_option)


def parameter_text(parameter) -> st.SearchStrategy[str]:
    """Texts for one parameter's flag: near its range's bounds (ranges.py) when it is a number, and hostile ones."""
    bounds = RANGES.get(parameter.name)  # the schema: the oracle of what a door may take
    if bounds is None:
        return hostile_text()
    low, high = bounds.low, bounds.high
    edges = [low, high, low - 1, high + 1, (low + high) / 2, high * 10]
    numbers = st.one_of(
        st.sampled_from(edges).map(lambda value: str(int(value)) if bounds.whole else repr(float(value))),
        st.integers(min_value=int(low) - 10, max_value=int(min(high, 10**7)) + 10).map(str),
        st.floats(min_value=low - 1, max_value=min(high, 10**7) + 1).map(repr),
    )
    return st.one_of(numbers, numbers, hostile_text()).filter(_not_an_option)


def json_values(depth: int = 3) -> st.SearchStrategy[Any]:
    """Any value a JSON or TOML file may hold (nested lists and tables included)."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(HOSTILE),
        st.text(max_size=20),
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=depth * 2,
    )


def file_value(parameter) -> st.SearchStrategy[Any]:
    """A parameter's value as a file holds it: a number near its bounds, its flag's text, or anything at all."""
    texts = parameter_text(parameter)

    def as_number(text: str) -> Any:
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text

    return st.one_of(texts.map(as_number), texts, json_values())


def _toml_value(value: Any) -> str | None:  # noqa: PLR0911 - one return a verdict
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, str):
        return json.dumps(value).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        items = [text for text in (_toml_value(item) for item in value) if text is not None]
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = [(json.dumps(str(key)), _toml_value(item)) for key, item in value.items()]
        return "{" + ", ".join(f"{key} = {text}" for key, text in pairs if text is not None) + "}"
    return json.dumps(str(value))


def toml(data: dict[str, Any]) -> str:
    """`data` as a TOML document (every table inline; a None value left out, as TOML has no null)."""
    lines = []
    for key, value in data.items():
        text = _toml_value(value)
        if text is not None:
            lines.append(f"{json.dumps(str(key))} = {text}")
    return "\n".join(lines) + "\n"


# --- the commands' arguments, read from the parser itself: every flag of every command -------------------------

# Commands fuzzed in-process (serve starts a page server: its own tests knock on it).
COMMANDS = ("simulate", "resume", "fork", "compare", "interview", "whisper", "set", "evaluate", "batch", "report",
            "models")  # fmt: skip
PLAUSIBLE_RUN = ("/nonexistent/run", "runs/none", "")


def _options(command: str) -> tuple[list[tuple[str, int]], int, Any]:
    """A command's flags with how many values each takes, its positionals' count, and its subparser."""
    import argparse  # noqa: PLC0415

    from smallville.cli import build_parser  # noqa: PLC0415

    parser = build_parser(command)
    sub = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    chosen = sub.choices[command]
    if command == "models":
        chosen = next(a for a in chosen._actions if isinstance(a, argparse._SubParsersAction)).choices["check"]
    flags, positionals = [], 0
    for action in chosen._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:
            positionals += 1
            continue
        takes = 0 if action.nargs == 0 else action.nargs if isinstance(action.nargs, int) else 1
        flags.append((action.option_strings[-1], takes))
    return flags, positionals, chosen


@st.composite
def command_argv(draw, command: str) -> list[str]:
    """`COMMAND` with positionals and some of its flags, each with plausible or hostile values."""
    flags, positionals, _ = _options(command)
    argv = [command] + (["check"] if command == "models" else [])
    if command in ("simulate", "batch"):
        argv += ["--scenario", "the_ville_n3", "--embedder", "hashing"]
    for _ in range(positionals if command != "models" else 0):
        argv.append(draw(st.one_of(st.sampled_from(PLAUSIBLE_RUN), hostile_text())))
    for flag, takes in draw(st.lists(st.sampled_from(flags), max_size=4, unique=True)) if flags else ():
        argv.append(flag)
        argv += [draw(hostile_text()) for _ in range(takes)]
    return argv


# --- files ----------------------------------------------------------------------------------------------------

SCENARIO_FIELDS = (
    "name", "description", "map", "map_copies", "personas", "whispers", "start", "seconds_per_step", "agents",
    "agents.0", "agents.0.name", "agents.0.tile", "facts", "facts.0.id", "facts.0.keywords", "facts.0.sources",
    "gathering", "gathering.place", "gathering.start", "gathering.end", "interventions", "weather",
)  # fmt: skip


def scenario_value(field: str) -> st.SearchStrategy[Any]:
    """A value for one field of a scenario file: its kind's edge values, or anything at all."""
    special = {
        # A hundred copies are honoured, but take minutes to lay (the scale series): the fuzz keeps to small towns.
        "map_copies": st.sampled_from([-1, 0, 1, 2, 101, 10**9]),
        "seconds_per_step": st.integers(min_value=-2, max_value=4000),
        "agents.0.tile": st.lists(st.integers(min_value=-5, max_value=200), min_size=0, max_size=3),
        "start": st.datetimes().map(lambda moment: moment.isoformat()),
        "gathering.start": st.datetimes().map(lambda moment: moment.isoformat()),
        "gathering.end": st.datetimes().map(lambda moment: moment.isoformat()),
    }
    return st.one_of(special.get(field, json_values()), json_values())


def _parameter_names() -> list[str]:
    from smallville.settings.parameters import PARAMETERS  # noqa: PLC0415

    return [parameter.name for parameter in PARAMETERS]


@st.composite
def grid_data(draw) -> dict[str, Any]:
    """A grid: the 3-agent town for a short day, with hostile seeds, durations, parameters, conditions, sweeps."""
    from smallville.settings.parameters import BY_NAME  # noqa: PLC0415

    names = _parameter_names()
    data: dict[str, Any] = {"scenarios": ["the_ville_n3"], "days": 0.01, "parameters": {"embedder": "hashing"}}
    seeds = st.one_of(
        st.lists(st.integers(min_value=-3, max_value=2**64), max_size=4),
        st.integers(min_value=-3, max_value=10),
        st.sampled_from(["0-3", "0-99999999999", "3-1", "0,1,1", "\u00b2", "0-", "a"]),
        json_values(),
    )
    if draw(st.booleans()):
        data["seeds"] = draw(seeds)
    if draw(st.booleans()):
        data.pop("days")
        data[draw(st.sampled_from(["days", "until"]))] = draw(json_values() | st.floats(0, 2) | st.just(1e-9))
    if draw(st.booleans()):
        name = draw(st.sampled_from([*names, "unknown_thing"]))
        value = draw(file_value(BY_NAME[name]) if name in BY_NAME else json_values())
        data["parameters"] = {**data["parameters"], name: value}
    if draw(st.booleans()):
        condition = draw(st.one_of(st.sampled_from(["full", "quiet", "x" * 150]), st.text(max_size=12)))
        data["conditions"] = {condition: draw(st.dictionaries(st.sampled_from(names), json_values(), max_size=2))}
    if draw(st.booleans()):
        name = draw(st.sampled_from(names))
        data["sweep"] = {name: draw(st.lists(file_value(BY_NAME[name]), max_size=3))}
    if draw(st.booleans()):
        data["budget"] = draw(st.dictionaries(st.sampled_from(["calls", "cost", "time"]), json_values(), max_size=2))
    if draw(st.booleans()):
        data[draw(st.sampled_from(["checkpoint_minutes", "evaluate", "interventions", "surprise"]))] = draw(
            json_values()
        )
    return data


@st.composite
def battery_data(draw) -> dict[str, Any]:
    """A battery: categories of questions with hostile names, texts, placeholders and measures."""
    questions = st.one_of(
        st.sampled_from(["What do you do, {name}?", "Who is {acquaintance}?", "{unknown}?", "{", "", "\x00", "ok?"]),
        st.text(max_size=30),
    )
    category = st.fixed_dictionaries(
        {
            "name": st.one_of(st.sampled_from(["self", "memory", "Bad Name", ""]), st.text(max_size=10)),
            "questions": st.lists(questions, max_size=3),
        }
    )
    data: dict[str, Any] = {
        "name": draw(st.one_of(st.just("mine"), st.text(max_size=10))),
        "categories": draw(st.lists(category, max_size=3)),
    }
    if draw(st.booleans()):
        data["measures"] = draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "fact_question": questions | st.just("About {topic}?"),
                    "relationship_question": questions,
                    "fact_questions": st.dictionaries(st.text(max_size=8), questions, max_size=2),
                },
            )
        )
    if draw(st.booleans()):
        data[draw(st.sampled_from(["description", "extra"]))] = draw(json_values())
    return data
