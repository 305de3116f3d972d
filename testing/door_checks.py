"""One check a door: give it one value, return the contract's violation in words (None when it held).

The doors: a parameter's flag (`parameter_flag`), a parameter's value in a file (`file_value`: a grid's key, a run's
config.json), a command's arguments (`command`), a scenario's field (`scenario_field`), a grid file (`grid_file`),
a battery file (`battery_file`). Honoured means the value reached what would be written unchanged (a flag's value
in the run's config, a grid's seeds in its cells), within its range, and the records the town is built from take it.
"""

import json
import shutil
from pathlib import Path
from typing import Any

from smallville.settings.ranges import RANGES
from testing.door_values import toml
from testing.doors import BOUND_S, Unbounded, bounded, contract_violation, knock, refusal_violation

FAST = ["--scenario", "the_ville_n3", "--embedder", "hashing"]


def _records(config: dict[str, Any]) -> None:
    """Build the mind's and the gateway's records from a run's config, as SmallvilleModel does (they may refuse)."""
    from agents import GatewayConfig, MindConfig  # noqa: PLC0415 - the rig loads the product when used
    from memory import RetrievalWeights  # noqa: PLC0415
    from smallville.settings.parameters import MIND_SETTINGS, resolve  # noqa: PLC0415

    values = resolve({key: value for key, value in config.items() if key in resolve({})})
    mind = {name: values[name] for name in MIND_SETTINGS}
    MindConfig(**{**mind, "retrieval_weights": RetrievalWeights.parse(values["retrieval_weights"])})
    GatewayConfig(model=values["llm"], routes=dict(values["routes"] or {}), max_in_flight=values["max_in_flight"],
                  timeout_s=values["timeout"], reasoning_effort=values["reasoning_effort"],
                  max_calls=values["max_calls"], max_cost=values["max_cost"])  # fmt: skip


def parameter_flag(name: str, text: str, folder: Path) -> str | None:
    """`simulate --FLAG TEXT`: refused in one line naming the flag, or in the run's config as parsed, within range."""
    from smallville.settings.parameters import BY_NAME  # noqa: PLC0415
    from smallville.settings.validation import check_value  # noqa: PLC0415

    parameter = BY_NAME[name]
    argv = ["simulate", *FAST, parameter.cli_flag, text, "--out", str(folder / "run")]
    result = knock(argv)
    if result.accepted is None:
        return refusal_violation(result, (parameter.cli_flag, parameter.cli_flag.removeprefix("--")))
    (_out, config), _ = result.accepted
    value = config[name]
    bounds = RANGES.get(parameter.name)  # the schema: the oracle of what a door may take
    if bounds is not None and isinstance(value, int | float) and not bounds.holds(value):
        return f"honoured out of its range: {value!r} not {bounds.span()}"
    try:
        again = check_value(name, value)
        _records(config)
    except Exception as error:
        return f"taken by the flag, refused later: {type(error).__name__}: {str(error)[:200]}"
    if again != value:
        return f"the flag's {value!r} reads back from a file as {again!r}"
    return None


def file_value(name: str, value: Any) -> str | None:  # noqa: PLR0911 - one return a verdict
    """A parameter's value in a file (a grid's key, config.json): checked to a value in range, or a SettingError."""
    from smallville.settings.validation import SettingError, check_value  # noqa: PLC0415

    try:
        with bounded(BOUND_S):
            checked = check_value(name, value)
    except SettingError as error:
        lines = [line for line in str(error).splitlines() if line.strip()]
        return None if len(lines) == 1 else f"{len(lines)} lines: {str(error)[:200]!r}"
    except Unbounded:
        return "unbounded: no answer within the bound"
    except Exception as error:
        return f"traceback: {type(error).__name__}: {str(error)[:200]}"
    bounds = RANGES.get(name)
    number = isinstance(checked, int | float) and not isinstance(checked, bool)
    if bounds is not None and number and not bounds.holds(checked):
        return f"taken out of its range: {checked!r} not {bounds.span()}"
    try:
        if check_value(name, checked) != checked:
            return f"{checked!r} does not read back as itself"
    except Exception as error:
        return f"its own checked value is refused: {type(error).__name__}: {str(error)[:200]}"
    return None


def command(argv: list[str]) -> str | None:
    """Any command with any arguments: it reaches its write, or refuses in one line."""
    return contract_violation(knock(argv))


def scenario_field(path: str, value: Any, folder: Path) -> str | None:
    """`simulate --scenario FILE` with one field of the 3-agent town's file set to `value`."""
    from smallville.scenarios.scenario import SCENARIOS_DIR, load_scenario  # noqa: PLC0415

    data = json.loads((SCENARIOS_DIR / "the_ville_n3.json").read_text())
    target, *parents = data, *path.split(".")[:-1]
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = path.rsplit(".", maxsplit=1)[-1]
    target[int(last) if isinstance(target, list) else last] = value
    file = folder / "town.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    result = knock(["simulate", "--scenario", str(file), "--embedder", "hashing", "--out", str(folder / "run")])
    if result.accepted is None:
        return refusal_violation(result, (str(file),))
    if path in ("name", "description", "seconds_per_step", "map_copies") and getattr(
        load_scenario(str(file)), path
    ) != (value):
        return f"{path} = {value!r} was taken as {getattr(load_scenario(str(file)), path)!r}"
    return None


def grid_file(data: dict[str, Any], folder: Path) -> str | None:
    """`batch GRID`: every cell planned as the grid says, or one line naming the file."""
    file = folder / "grid.toml"
    file.write_text(toml(data), encoding="utf-8", errors="surrogatepass")
    shutil.rmtree(folder / "batch", ignore_errors=True)
    result = knock(["batch", str(file), "--out", str(folder / "batch")])
    if result.accepted is None:
        return refusal_violation(result, (str(file), "--out"))
    (_batch, cells, _data), _ = result.accepted
    seeds = data.get("seeds")
    if isinstance(seeds, list) and sorted({cell.seed for cell in cells}) != sorted(set(seeds)):
        return f"seeds {seeds!r} planned as {sorted({cell.seed for cell in cells})}"
    conditions = data.get("conditions")
    if isinstance(conditions, dict) and conditions:
        planned = {cell.condition.split(",")[0] for cell in cells}
        if planned != set(conditions):
            return f"conditions {sorted(conditions)} planned as {sorted(planned)}"
    return None


def battery_file(data: dict[str, Any], folder: Path) -> str | None:
    """A battery file: read with every question, or a BatteryError of one line naming the file."""
    from smallville.evaluation.battery import BatteryError, load_battery  # noqa: PLC0415

    file = folder / "battery.toml"
    file.write_text(toml(data), encoding="utf-8", errors="surrogatepass")
    try:
        with bounded(BOUND_S):
            battery = load_battery(file)
    except BatteryError as error:
        lines = [line for line in str(error).splitlines() if line.strip()]
        if len(lines) != 1 or str(file) not in lines[0]:
            return f"not one line naming the file: {str(error)[:200]!r}"
        return None
    except Unbounded:
        return "unbounded: no answer within the bound"
    except Exception as error:
        return f"traceback: {type(error).__name__}: {str(error)[:200]}"
    asked = sum(len(category["questions"]) for category in data.get("categories", []))
    if len(battery.items()) != asked:
        return f"{asked} questions in the file, {len(battery.items())} read"
    return None


def doors(folder: Path) -> dict[str, tuple[Any, Any]]:
    """Every door: its name -> (a hypothesis strategy of values, the check of one value: its violation or None).

    `folder` is an empty folder the checks write their files in (the commands themselves never write: doors.knock).
    """
    from hypothesis import strategies as st  # noqa: PLC0415 - a test dependency

    from smallville.settings.parameters import BY_NAME, PARAMETERS  # noqa: PLC0415
    from testing import door_values as values  # noqa: PLC0415

    flags = [parameter for parameter in PARAMETERS if parameter.parse is not None and parameter.name != "scenario_name"]
    return {
        "parameter flags": (
            st.sampled_from(flags).flatmap(lambda p: values.parameter_text(p).map(lambda text: (p.name, text))),
            lambda case: parameter_flag(*case, folder),
        ),
        "parameter values in files": (
            st.sampled_from(list(BY_NAME)).flatmap(lambda n: values.file_value(BY_NAME[n]).map(lambda v: (n, v))),
            lambda case: file_value(*case),
        ),
        "command arguments": (
            st.sampled_from(values.COMMANDS).flatmap(values.command_argv),
            command,
        ),
        "scenario fields": (
            st.sampled_from(values.SCENARIO_FIELDS).flatmap(lambda f: values.scenario_value(f).map(lambda v: (f, v))),
            lambda case: scenario_field(*case, folder),
        ),
        "grid files": (values.grid_data(), lambda data: grid_file(data, folder)),
        "battery files": (values.battery_data(), lambda data: battery_file(data, folder)),
    }
