"""A batch grid: conditions x seeds x scenarios, read from TOML and validated, then expanded into cells.

```toml
seeds = [0, 1, 2]                 # or "0-9"
scenarios = ["the_ville_n25"]
days = 2                          # or until = "2023-02-14T23:00"
evaluate = false                  # run smallville.evaluation on each finished cell
checkpoint_minutes = 60

[parameters]                      # SmallvilleModel keywords shared by every cell
embedder = "minilm"

[conditions.full]                 # one table per condition: the keywords it changes
[conditions.no_reflection]
reflection = false

[sweep]                           # optional: every combination of these values, crossed with the conditions
reflection_threshold = [150, 250]

[budget]                          # optional: the whole batch stops cleanly once it is spent
calls = 100000
cost = 20.0

[[interventions]]                 # optional: for every cell (smallville/interventions/records.py); a condition's own go
time = 2023-02-13T08:00:00        # in [[conditions.NAME.interventions]], e.g. a town with and without a whisper
kind = "whisper"
target = "Klaus Mueller"
text = "The library closes early on Friday"
```
"""

import argparse
import hashlib
import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from smallville.batch.grid_keys import GRID_OWNED, parameter_names, parameters_model
from smallville.interventions.records import InterventionError, parse_interventions
from smallville.settings import option_types
from smallville.settings.ranges import RANGES
from smallville.settings.simulated_time import SimulatedTime
from smallville.settings.text_files import read_data
from smallville.settings.validation import SettingError, check_end, check_town, check_value


class GridError(ValueError):
    """A grid that cannot be run; the message names the file and the field."""


MAX_SEEDS = int(RANGES["seeds"].high)
MAX_CELLS = int(RANGES["cells"].high)
# The longest cell name a file system takes (255 bytes), less room for the files written beside it.
MAX_CELL_NAME = 200


def parse_seeds(value: str | int | list[int]) -> list[int]:
    """Seeds as a list: "0-9" (inclusive), "0,3,7", a number or a list; at most MAX_SEEDS of them.

    The count is checked before the list is made: "0-99999999999" used to hang while it was listed.
    """
    if isinstance(value, bool):
        raise ValueError(f"seeds {value!r}: use a range such as 0-9, a list such as 0,3,7, or a number")
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        _check_seed_count(len(value), value)
        return value
    spans: list[tuple[int, int]] = []
    for part in str(value).split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isascii() or not first.isdigit() or (dash and not (last.isascii() and last.isdigit())):
            raise ValueError(f"seeds {value!r}: use a range such as 0-9, a list such as 0,3,7, or a number")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"seeds {value!r}: the range {part.strip()} runs backwards; give it as {high}-{low}")
        spans.append((low, high))
    _check_seed_count(sum(high - low + 1 for low, high in spans), value)
    return [seed for low, high in spans for seed in range(low, high + 1)]


def _check_seed_count(count: int, value: Any) -> None:
    if count > MAX_SEEDS:
        shown = value if not isinstance(value, list) else f"[{count} seeds]"
        raise ValueError(f"seeds {shown!r}: {count} seeds, more than {MAX_SEEDS} in one batch; give fewer")


def _as_flag(validator, value: Any) -> Any:
    """A grid's value checked by the validator of the batch flag that sets the same thing (the same words)."""
    try:
        return validator(repr(value) if isinstance(value, float) else str(value))
    except argparse.ArgumentTypeError as error:
        raise ValueError(str(error)) from None


def _checked_as_flag(field: str, validator, *, each: bool = False):
    """A grid field's validator: its value (each item of it, with `each`) checked as `_as_flag` checks; None kept."""

    def check(cls, value: Any) -> Any:
        if value is None:
            return None
        return [_as_flag(validator, item) for item in value] if each else _as_flag(validator, value)

    return field_validator(field)(classmethod(check))


class Budget(BaseModel):
    """The batch-wide budget: model calls and dollars across all cells (checked as --max-calls and --max-cost are)."""

    model_config = ConfigDict(extra="forbid")
    calls: int | None = None
    cost: float | None = None

    _calls_as_flag = _checked_as_flag("calls", option_types.max_calls)
    _cost_as_flag = _checked_as_flag("cost", option_types.max_cost)


class Grid(BaseModel):
    """A grid file's contents."""

    model_config = ConfigDict(extra="forbid")
    seeds: list[int] = Field(default=[0], min_length=1)
    scenarios: list[str] = Field(default=["the_ville_n25"], min_length=1)
    days: float | None = Field(default=None, gt=0)
    until: SimulatedTime | None = None
    evaluate: bool = False
    checkpoint_minutes: float = Field(default=60, gt=0)
    parameters: dict[str, Any] = {}
    conditions: dict[str, dict[str, Any]] = {"full": {}}
    sweep: dict[str, list[Any]] = {}
    budget: Budget = Budget()
    interventions: list[dict[str, Any]] = []

    @field_validator("seeds", mode="before")
    @classmethod
    def _seeds(cls, value: Any) -> Any:
        return parse_seeds(value) if isinstance(value, str | int) else value

    _seeds_as_flags = _checked_as_flag("seeds", option_types.seed, each=True)
    _days_as_flag = _checked_as_flag("days", option_types.days)
    _minutes_as_flag = _checked_as_flag("checkpoint_minutes", option_types.checkpoint_minutes)

    @field_validator("conditions")
    @classmethod
    def _condition_names(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        if not value:
            raise ValueError("give at least one condition (an empty [conditions.full] table is the full model)")
        for name in value:
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                raise ValueError(f"condition name {name!r}: use letters, digits, '_', '.' or '-'")
            if len(name) > MAX_CELL_NAME // 2:  # it names each cell's folder, with the scenario and the seed
                raise ValueError(
                    f"condition name {name[:20]!r}... has {len(name)} characters, too long to name a cell's folder; "
                    f"give at most {MAX_CELL_NAME // 2}"
                )
        return value

    @model_validator(mode="after")
    def _one_duration(self) -> "Grid":
        if (self.days is None) == (self.until is None):
            raise ValueError("give exactly one of days and until")
        return self


@dataclass(frozen=True)
class CellSpec:
    """One cell: a condition on one scenario with one seed, run to an end into BATCH/cells/<cell_id>."""

    cell_id: str
    condition: str
    scenario: str
    seed: int
    parameters: dict[str, Any]
    days: float | None
    until: str | None
    checkpoint_minutes: float
    evaluate: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def model_kwargs(self) -> dict[str, Any]:
        """SmallvilleModel's keyword arguments for this cell."""
        return {**self.parameters, "scenario_name": self.scenario, "rng": self.seed}

    def fingerprint(self) -> str:
        """What makes two cells the same run (a re-run of a batch must find the same cells)."""
        data = {"kwargs": self.model_kwargs(), "days": self.days, "until": self.until}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def read_grid(path: Path) -> dict[str, Any]:
    """A grid file's data, not yet validated.

    Raises:
        GridError: Naming the file, if it cannot be read, is not UTF-8 or not TOML.
    """
    return read_data(path, "grid", GridError, "TOML")


def load_grid(path: Path) -> Grid:
    """Read and validate a grid file.

    Raises:
        GridError: Naming the file and the field, if it is missing, not TOML, or a field is wrong.
    """
    return validate_grid(read_grid(path), str(path))


def validate_grid(data: dict[str, Any], source: str, shared: frozenset[str] = frozenset()) -> Grid:
    """Validate a grid's data with the checks the CLI applies to the same values; errors name `source` and the field.

    `shared` names the [parameters] the batch set itself (its caches in BATCH/, made when the batch starts): their
    files' folders need not exist yet.
    """
    try:
        grid = Grid.model_validate(data)
    except ValidationError as error:
        raise GridError(_message(source, error)) from error
    _check_parameters({k: v for k, v in grid.parameters.items() if k not in shared}, "parameters", source)
    for name, switches in grid.conditions.items():
        _check_parameters(switches, f"conditions.{name}", source)
    for name, values in grid.sweep.items():
        if not values:
            raise GridError(f"{source}: sweep.{name}: an empty list would make no cells; give at least one value")
        for index, value in enumerate(values):
            _check_parameters({name: value}, f"sweep[{index}]", source)
    _check_interventions(grid.interventions, "interventions", source)
    for where, values in [
        ("parameters", grid.parameters),
        *((f"conditions.{n}", c) for n, c in grid.conditions.items()),
    ]:
        _check_interventions(values.get("interventions") or [], f"{where}.interventions", source)
    return grid


def _check_interventions(entries: list, where: str, source: str) -> None:

    try:
        parse_interventions(entries, f"{source}: {where}")
    except InterventionError as error:
        raise GridError(str(error)) from error


def _cell_interventions(*lists: list) -> list[dict]:
    """A cell's interventions (the grid's, then its condition's) as plain JSON data: its config and fingerprint."""
    entries = [entry for entries in lists for entry in entries or ()]
    return [item.model_dump(mode="json") for item in parse_interventions(entries, "interventions")]


def _check_parameters(values: dict[str, Any], where: str, source: str) -> None:
    """Each value's type by the model's signature, then its command-line flag's validator (settings/validation.py)."""
    for name, value in values.items():
        key = f"{where}.{name}"
        if name in GRID_OWNED:
            raise GridError(f"{source}: {key}: set by the grid's `{GRID_OWNED[name]}`; move it there")
        if name not in parameter_names():
            raise GridError(
                f"{source}: {key}: unknown parameter; SmallvilleModel takes: {', '.join(parameter_names())}"
            )
        try:
            parameters_model().model_validate({name: value})
        except ValidationError as error:
            raise GridError(_message(source, error, prefix=where)) from error
        try:
            check_value(name, value)
        except SettingError as error:
            shown = f" = {value!r}" if not isinstance(value, list | dict) else ""  # (a table's words name its part)
            raise GridError(f"{source}: {key}{shown}: {error}; fix that value") from None


def check_cells(grid: Grid, cells: list["CellSpec"], source: str) -> None:
    """What only a cell's scenario can tell (its agents, map, start, models), for every cell before any starts.

    The checks are `run.py simulate`'s own (settings/validation.py); a cell that fails names the grid's key that set
    the value at fault, so the batch never starts cells the CLI would refuse one by one.

    Raises:
        GridError: Naming `source`, the key and the fix.
    """
    seen: set[str] = set()
    for cell in cells:
        kwargs = cell.model_kwargs()
        fingerprint = json.dumps({**kwargs, "rng": 0}, sort_keys=True, default=str)
        if fingerprint in seen:
            continue  # the same town as a cell already checked, with another seed
        seen.add(fingerprint)
        try:
            setting = check_town(kwargs)
            check_end(setting.start, grid.until, grid.days)
        except SettingError as error:
            key = _key_of(grid, cell, error.name)
            raise GridError(f"{source}: {key}: {error} (cell {cell.cell_id}); fix that value") from None


def _key_of(grid: Grid, cell: "CellSpec", name: str) -> str:
    """Where in the grid the value of parameter `name` for this cell was set."""
    if name in ("until", "days"):
        return name
    if name == "scenario_name":
        return f"scenarios[{grid.scenarios.index(cell.scenario)}]"
    condition = cell.condition.split(",")[0]
    for where, values in (("sweep", grid.sweep), (f"conditions.{condition}", grid.conditions.get(condition, {}))):
        if name in values:
            return f"{where}.{name}"
    return f"parameters.{name}" if name in grid.parameters else f"{name} (its default)"


def _message(source: str, error: ValidationError, prefix: str = "") -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    where = f"{prefix}.{where}" if prefix and where else prefix or where or "(top level)"
    plain = first["type"] in ("missing", "value_error") or isinstance(first["input"], dict)  # a value error names it
    value = "" if plain else f" (got {first['input']!r})"
    return f"{source}: {where}: {first['msg'].removeprefix('Value error, ')}{value}; fix that field"


def expand(grid: Grid, source: str = "the grid") -> list[CellSpec]:
    """Every cell of the grid: conditions (crossed with the sweep) x scenarios x seeds, in that order.

    Raises:
        GridError: Naming `source`, for more than MAX_CELLS cells, a cell name too long for a folder, or two cells of
            the same name.
    """
    sweep_names = list(grid.sweep)
    count = len(grid.conditions) * len(grid.scenarios) * len(grid.seeds)
    for name in sweep_names:
        count *= len(grid.sweep[name])
    if count > MAX_CELLS:  # counted before the cells are made: a sweep's product can be astronomically large
        raise GridError(
            f"{source}: {count} cells (conditions x sweep x scenarios x seeds), more than {MAX_CELLS} in one batch; "
            "split it"
        )
    combinations = list(itertools.product(*(grid.sweep[name] for name in sweep_names))) or [()]
    cells = []
    for condition, switches in grid.conditions.items():
        for combination in combinations:
            swept = dict(zip(sweep_names, combination, strict=True))
            label = condition + "".join(f",{name}={_short(value)}" for name, value in swept.items())
            parameters = {**grid.parameters, **switches, **swept}
            interventions = _cell_interventions(grid.interventions, parameters.get("interventions"))
            if interventions:
                parameters["interventions"] = interventions
            for scenario in grid.scenarios:
                for seed in grid.seeds:
                    cells.append(
                        CellSpec(
                            cell_id=f"{label}--{Path(scenario).stem}--seed{seed}",
                            condition=label,
                            scenario=scenario,
                            seed=seed,
                            parameters=parameters,
                            days=grid.days,
                            until=grid.until.isoformat() if grid.until else None,
                            checkpoint_minutes=grid.checkpoint_minutes,
                            evaluate=grid.evaluate,
                        )
                    )
    if long := next((cell.cell_id for cell in cells if len(cell.cell_id.encode()) > MAX_CELL_NAME), None):
        raise GridError(
            f"{source}: cell name {long[:40]}... is {len(long.encode())} bytes, too long for a folder's name (at most "
            f"{MAX_CELL_NAME}); give shorter condition, sweep or scenario names"
        )
    names = [cell.cell_id for cell in cells]
    duplicates = {name for name, times in Counter(names).items() if times > 1}
    if duplicates:
        raise GridError(
            f"{source}: two cells share the name {sorted(duplicates)[0]}; give the scenarios distinct names"
        )
    return cells


def _short(value: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(value))[:24]
