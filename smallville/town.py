"""Building the town: the map and its paths (loaded once per process), and the people from the scenario."""

from functools import cache
from pathlib import Path

from agents import AgentMemory, GenerativeAgent, load_persona, load_whispers, make_agent_embedder
from environment import PathFinder, SpatialMemory, Ville, load_ville
from memory import MemoryStream
from smallville.scenarios.scenario import DATA_DIR, Scenario


def town_map(setting: Scenario) -> tuple[Ville, PathFinder]:
    """A scenario's map (laid as many times side by side as it says) and its path finder."""
    return load_town(DATA_DIR / setting.map, setting.map_copies)


@cache
def load_town(map_dir: Path, copies: int = 1) -> tuple[Ville, PathFinder]:
    """The map, laid `copies` times side by side, and a path finder, shared by every model of the process.

    Both are read-only; paths are cached.
    """
    ville = load_ville(map_dir, copies)
    return ville, PathFinder(ville)


def build_people(model, embedder_name: str, embedding_cache: str | None = None) -> list[GenerativeAgent]:
    """One GenerativeAgent per scenario agent, in the scenario's order, on its start tile."""
    setting = model.setting
    whispers = load_whispers(DATA_DIR / setting.whispers)
    disk_path = str(Path(embedding_cache).resolve()) if embedding_cache else None
    embedder = make_agent_embedder(embedder_name, api_base=model.gateway.config.api_base, disk_path=disk_path)
    people = []
    for start in setting.agents:
        persona = load_persona(setting.personas_folder, start.name, whispers)
        if not model.ville.is_walkable(start.tile):
            raise ValueError(f"scenario {setting.name}: {start.name} starts on {start.tile}, which is not walkable")
        people.append(
            GenerativeAgent(
                model,
                persona,
                mind=model.mind,
                memories=AgentMemory(
                    MemoryStream(dim=embedder.dim, recency_decay=model.config.recency_decay), embedder
                ),
                spatial=SpatialMemory.from_file(persona.spatial_memory_file),
                cell=model.grid[start.tile],
            )
        )
    return people
