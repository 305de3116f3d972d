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

[[interventions]]                 # optional: for every cell (smallville/interventions.py); a condition's own go
time = 2023-02-13T08:00:00        # in [[conditions.NAME.interventions]], e.g. a town with and without a whisper
kind = "whisper"
target = "Klaus Mueller"
text = "The library closes early on Friday"
```
"""

import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from smallville.batch.parameters import GRID_OWNED, parameter_names, parameters_model


class GridError(ValueError):
    """A grid that cannot be run; the message names the file and the field."""


def parse_seeds(value: str | int | list[int]) -> list[int]:
    """Seeds as a list: "0-9" (inclusive), "0,3,7", a number or a list."""
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return value
    seeds: list[int] = []
    for part in str(value).split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"seeds {value!r}: use a range such as 0-9, a list such as 0,3,7, or a number")
        seeds += list(range(int(first), int(last) + 1)) if dash else [int(first)]
    return seeds


class Budget(BaseModel):
    """The batch-wide budget: model calls and dollars across all cells."""

    model_config = ConfigDict(extra="forbid")
    calls: int | None = Field(default=None, ge=1)
    cost: float | None = Field(default=None, gt=0)


class Grid(BaseModel):
    """A grid file's contents."""

    model_config = ConfigDict(extra="forbid")
    seeds: list[int] = Field(default=[0], min_length=1)
    scenarios: list[str] = Field(default=["the_ville_n25"], min_length=1)
    days: float | None = Field(default=None, gt=0)
    until: datetime | None = None
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

    @field_validator("conditions")
    @classmethod
    def _condition_names(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        if not value:
            raise ValueError("give at least one condition (an empty [conditions.full] table is the full model)")
        for name in value:
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                raise ValueError(f"condition name {name!r}: use letters, digits, '_', '.' or '-'")
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


def load_grid(path: Path) -> Grid:
    """Read and validate a grid file.

    Raises:
        GridError: Naming the file and the field, if it is missing, not TOML, or a field is wrong.
    """
    try:
        data = tomllib.loads(path.read_text())
    except OSError as error:
        raise GridError(f"{path}: cannot read the grid ({error.strerror})") from error
    except tomllib.TOMLDecodeError as error:
        raise GridError(f"{path}: not valid TOML ({error}); fix the syntax") from error
    return validate_grid(data, str(path))


def validate_grid(data: dict[str, Any], source: str) -> Grid:
    """Validate a grid's data; errors name `source` and the field."""
    try:
        grid = Grid.model_validate(data)
    except ValidationError as error:
        raise GridError(_message(source, error)) from error
    _check_parameters(grid.parameters, "parameters", source)
    for name, switches in grid.conditions.items():
        _check_parameters(switches, f"conditions.{name}", source)
    for name, values in grid.sweep.items():
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
    from smallville.interventions import InterventionError, parse_interventions  # noqa: PLC0415

    try:
        parse_interventions(entries, f"{source}: {where}")
    except InterventionError as error:
        raise GridError(str(error)) from error


def _cell_interventions(*lists: list) -> list[dict]:
    """A cell's interventions (the grid's, then its condition's) as plain JSON data: its config and fingerprint."""
    from smallville.interventions import parse_interventions  # noqa: PLC0415

    entries = [entry for entries in lists for entry in entries or ()]
    return [item.model_dump(mode="json") for item in parse_interventions(entries, "interventions")]


def _check_parameters(values: dict[str, Any], where: str, source: str) -> None:
    for name in values:
        if name in GRID_OWNED:
            raise GridError(f"{source}: {where}.{name}: set by the grid's `{GRID_OWNED[name]}`; move it there")
        if name not in parameter_names():
            raise GridError(
                f"{source}: {where}.{name}: unknown parameter; SmallvilleModel takes: {', '.join(parameter_names())}"
            )
    try:
        parameters_model().model_validate(values)
    except ValidationError as error:
        raise GridError(_message(source, error, prefix=where)) from error


def _message(source: str, error: ValidationError, prefix: str = "") -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    where = f"{prefix}.{where}" if prefix and where else prefix or where or "(top level)"
    value = f" (got {first['input']!r})" if first["type"] != "missing" and not isinstance(first["input"], dict) else ""
    return f"{source}: {where}: {first['msg']}{value}; fix that field"


def expand(grid: Grid) -> list[CellSpec]:
    """Every cell of the grid: conditions (crossed with the sweep) x scenarios x seeds, in that order."""
    sweep_names = list(grid.sweep)
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
    duplicates = {cell.cell_id for cell in cells if sum(other.cell_id == cell.cell_id for other in cells) > 1}
    if duplicates:
        raise GridError(f"two cells share the name {sorted(duplicates)[0]}; give the scenarios distinct names")
    return cells


def _short(value: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(value))[:24]
