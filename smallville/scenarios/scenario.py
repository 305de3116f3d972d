"""Scenarios: which personas live in the town, where they start, when, and which facts to track.

A scenario is a JSON file in data/scenarios/ validated with pydantic, so a user can write a new one (other agents,
another start time, other facts) without touching code; a mistake gives a `ScenarioError` naming the file and field.
"""

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from smallville.interventions.records import Intervention
from smallville.scenarios.small_town import mixed_order
from smallville.settings.ranges import RANGES
from smallville.settings.simulated_time import SimulatedTime
from smallville.settings.text_files import first_field_error, read_data

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
_STEP = RANGES["seconds_per_step"]
SCENARIOS_DIR = DATA_DIR / "scenarios"


class ScenarioError(ValueError):
    """A scenario that cannot be used; the message names the file, the field and the fix."""


class AgentStart(BaseModel):
    """One agent of the scenario and the tile (x, y) it starts on."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    tile: tuple[int, int]


class TrackedFact(BaseModel):
    """A piece of news whose spread is measured (information diffusion, the paper's section 7).

    The rule for "knows": an agent knows the fact when it is one of its `sources`, or when one of its memories
    matches every keyword group, a group matching when any of its keywords appears in the memory as a whole word
    (case-insensitive; a trailing "*" matches any word starting so: "candida*" matches "candidacy").
    """

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str
    sources: list[str] = []
    keywords: list[list[str]] = Field(min_length=1)

    @field_validator("keywords")
    @classmethod
    def _groups_not_empty(cls, groups: list[list[str]]) -> list[list[str]]:
        if any(not group or any(not word.strip("* ") for word in group) for group in groups):
            raise ValueError("every keyword group needs at least one non-empty keyword")
        return groups

    def matches(self, text: str) -> bool:
        """Whether a memory's text states this fact, by the keyword rule above."""
        return all(any(_keyword_pattern(word).search(text) for word in group) for group in self.keywords)


def _keyword_pattern(word: str) -> re.Pattern[str]:
    stem = re.escape(word.rstrip("*").strip())
    tail = r"\w*" if word.endswith("*") else r"\b"
    return re.compile(rf"\b{stem}{tail}", re.IGNORECASE)


class Gathering(BaseModel):
    """An event whose attendance is measured: who is at `place` between `start` and `end`."""

    model_config = ConfigDict(extra="forbid")
    name: str
    place: str = Field(pattern=r"^[^:]+:[^:]+")
    start: SimulatedTime
    end: SimulatedTime

    @model_validator(mode="after")
    def _ends_after_it_starts(self) -> "Gathering":
        if self.end <= self.start:
            raise ValueError(f"ends ({self.end:%Y-%m-%d %H:%M}) before it starts ({self.start:%Y-%m-%d %H:%M})")
        return self


class Scenario(BaseModel):
    """A town to simulate; paths are relative to the data directory."""

    model_config = ConfigDict(extra="forbid")
    name: str
    description: str = ""
    map: str
    # The map laid this many times side by side (environment/map_copies.py): the tiled towns of the scale series.
    map_copies: int = Field(default=1, ge=1, le=100)
    personas: str
    whispers: str
    start: SimulatedTime
    seconds_per_step: int = Field(default=10, ge=_STEP.low, le=_STEP.high)  # settings/ranges.py, as the flag's
    agents: list[AgentStart] = Field(min_length=1)
    facts: list[TrackedFact] = []
    gathering: Gathering | None = None
    # Changes a user makes at set times (smallville/interventions/records.py): whispers, objects' states, broadcasts.
    interventions: list[Intervention] = []

    @model_validator(mode="after")
    def _unique_agents(self) -> "Scenario":
        names = [agent.name for agent in self.agents]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"agents: {', '.join(duplicates)} listed more than once")
        ids = [fact.id for fact in self.facts]
        if twice := sorted({fact for fact in ids if ids.count(fact) > 1}):  # one would hide the other's spread
            raise ValueError(f"facts: the id {twice[0]!r} is given to two facts; give each fact its own id")
        if self.gathering and self.gathering.end <= self.start:
            raise ValueError(f"gathering: ends ({self.gathering.end:%Y-%m-%d %H:%M}) before the scenario starts")
        return self

    def check_map(self, ville, source: str = "") -> None:
        """Check the places the scenario names against its map: the gathering's place, the agents' start tiles.

        Args:
            ville: The scenario's map (an environment.Ville).
            source: The scenario file, for the message.

        Raises:
            ScenarioError: Naming the field, what is wrong and the fix.
        """
        where = source or f"scenario {self.name}"
        if self.gathering and not ville.has_address(self.gathering.place):
            example = f"{ville.world}:{ville.sectors()[0]}"
            raise ScenarioError(
                f"{where}: field 'gathering.place': {self.gathering.place!r} is not a place on the map; "
                f"give world:sector[:arena] as the map names it, e.g. {example!r}"
            )
        for index, agent in enumerate(self.agents):
            if not ville.is_walkable(agent.tile):
                raise ScenarioError(
                    f"{where}: field 'agents.{index}.tile': {agent.name} starts on {list(agent.tile)}, which is off "
                    "the map or a wall; give a walkable tile"
                )

    @property
    def agent_names(self) -> list[str]:
        """The agents' names in the scenario's order (the order decisions are applied in)."""
        return [agent.name for agent in self.agents]

    @property
    def personas_folder(self) -> Path:
        """The folder of the town's personas (one subfolder a person, in the original's format)."""
        return DATA_DIR / self.personas

    def select(self, agents: int | list[str] | None) -> "Scenario":
        """A copy with only some agents: n of them, or the named ones (in the scenario's order).

        A town of n holds the tracked facts' sources, then one person from each home in turn (small_town.py), kept
        in the scenario's order; all of them when n is the scenario's size.

        Raises:
            ScenarioError: If n is out of range or a name is not in the scenario.
        """
        if agents is None:
            return self
        if isinstance(agents, int):
            if not 1 <= agents <= len(self.agents):
                raise ScenarioError(f"scenario {self.name}: asked for {agents} agents; it has 1 to {len(self.agents)}")
            keep = set(mixed_order(self)[:agents]) if agents < len(self.agents) else set(self.agent_names)
            chosen = [agent for agent in self.agents if agent.name in keep]
        else:
            unknown = [name for name in agents if name not in self.agent_names]
            if unknown:
                raise ScenarioError(
                    f"scenario {self.name}: no agent named {', '.join(map(repr, unknown))}; "
                    f"choose from: {', '.join(self.agent_names)}"
                )
            chosen = [agent for agent in self.agents if agent.name in set(agents)]
        return self.model_copy(update={"agents": chosen})


def available_scenarios(directory: Path = SCENARIOS_DIR) -> list[str]:
    """Names of the scenario files in a directory."""
    return sorted(path.stem for path in directory.glob("*.json"))


def scenario_file(name_or_path: str | Path, directory: Path = SCENARIOS_DIR) -> Path:
    """The file of a scenario given by name (in data/scenarios/) or by path."""
    path = Path(name_or_path)
    if path.is_dir() and (path / "scenario.json").is_file():  # a town folder (`run.py town new/import`)
        return path / "scenario.json"
    return path if path.suffix == ".json" else directory / f"{name_or_path}.json"


def _beside(scenario: Scenario, folder: Path) -> Scenario:
    """The scenario with its "./" and "../" paths (map, personas, whispers) read from its own folder.

    A town folder (`run.py town new`, `town import`) names its map and people so, and can then be moved anywhere;
    other paths stay relative to the data directory.
    """
    fields = ("map", "personas", "whispers")
    moved = {
        field: str((folder / value).resolve())
        for field in fields
        if (value := getattr(scenario, field)).startswith(("./", "../")) or value == "."
    }
    return scenario.model_copy(update=moved) if moved else scenario


def load_scenario(name_or_path: str | Path, directory: Path = SCENARIOS_DIR) -> Scenario:
    """Load a scenario by name (a file in data/scenarios/) or by path.

    Raises:
        ScenarioError: If the file is missing, is not JSON, or a field is wrong.
    """
    path = scenario_file(name_or_path, directory)
    if not path.is_file():
        raise ScenarioError(
            f"{path}: no such scenario; choose one of: {', '.join(available_scenarios(directory))}, or give a path"
        )
    data = read_data(path, "scenario", ScenarioError, "JSON")
    try:
        return _beside(Scenario.model_validate(data), path.parent)
    except ValidationError as error:
        raise ScenarioError(f"{path}: {first_field_error(error)}; fix that field") from error
