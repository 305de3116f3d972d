"""What an agent knows of the world tree: the places it may think of going to, growing as it sees new ones.

Seeded from each persona's spatial_memory.json; `choices` leaves out other people's homes, as the original does
for the places offered to the model (generalized: any sector or arena named as a person's or family's).
"""

import json
import re
from pathlib import Path

# "Ryan Park's apartment", "Moreno family's house", "Tom and Jane Moreno's bedroom": a proper name, then 's.
# Lower-case owners ("artist's co-living space", "man's bathroom") are shared places.
_PRIVATE = re.compile(r"^(?P<owner>[A-Z][\w .-]*?)'s\s")


class SpatialMemory:
    """A nested tree world > sector > arena > [objects]."""

    def __init__(self, tree: dict[str, dict[str, dict[str, list[str]]]] | None = None):
        self.tree: dict[str, dict[str, dict[str, list[str]]]] = {
            world: {
                sector: {arena: list(objects) for arena, objects in arenas.items()}
                for sector, arenas in sectors.items()
            }
            for world, sectors in (tree or {}).items()
        }

    @classmethod
    def from_file(cls, path: Path) -> "SpatialMemory":
        """Read a persona's spatial_memory.json.

        Raises:
            ValueError: If the file is not a JSON tree of world > sector > arena > [objects].
        """
        try:
            tree = json.loads(Path(path).read_text())
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not valid JSON ({error})") from error
        valid = isinstance(tree, dict) and all(
            isinstance(sectors, dict)
            and all(
                isinstance(arenas, dict) and all(isinstance(objects, list) for objects in arenas.values())
                for arenas in sectors.values()
            )
            for sectors in tree.values()
        )
        if not valid:
            raise ValueError(f"{path}: expected a tree {{world: {{sector: {{arena: [objects]}}}}}}")
        return cls(tree)

    def add(self, address: str) -> bool:
        """Add a place of any depth ("world:sector[:arena[:object]]"); True if something was new."""
        parts = [part for part in address.split(":") if part]
        if not parts:
            return False
        world, *rest = parts
        new = world not in self.tree
        sectors = self.tree.setdefault(world, {})
        if rest:
            new |= rest[0] not in sectors
            arenas = sectors.setdefault(rest[0], {})
            if len(rest) > 1:
                new |= rest[1] not in arenas
                objects = arenas.setdefault(rest[1], [])
                if len(rest) > 2 and rest[2] not in objects:
                    objects.append(rest[2])
                    new = True
        return new

    def knows(self, address: str) -> bool:
        """Whether the agent knows a place."""
        node = self.tree
        for depth, part in enumerate(address.split(":")):
            if depth == 3:
                return part in node
            if part not in node:
                return False
            node = node[part]
        return True

    def choices(self, agent_name: str) -> dict[str, dict[str, list[str]]]:
        """The sectors, arenas and objects an agent may choose for its next action (others' homes left out)."""
        last_name = agent_name.rsplit(maxsplit=1)[-1]
        result: dict[str, dict[str, list[str]]] = {}
        for sectors in self.tree.values():
            for sector, arenas in sectors.items():
                if not _may_enter(sector, last_name):
                    continue
                kept = {arena: list(objects) for arena, objects in arenas.items() if _may_enter(arena, last_name)}
                if kept:
                    result.setdefault(sector, {}).update(kept)
        return result

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {"tree": self.tree}

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.__init__(state["tree"])

    @classmethod
    def from_state(cls, state: dict) -> "SpatialMemory":
        """A spatial memory from `get_state`'s data."""
        return cls(state["tree"])


def _may_enter(name: str, last_name: str) -> bool:
    match = _PRIVATE.match(name)
    return match is None or last_name in match.group("owner")
