"""What an agent knows of the world tree: the places it may think of going to, growing as it sees new ones.

Seeded from each persona's spatial_memory.json. `choices` leaves out other people's private places, as the
original does for the places it offers the model: it drops "<name>'s house" sectors and "<name>'s room" arenas
unless the name holds the agent's last name. Here the rule is generalized to any sector or arena whose name starts
with a proper name followed by "'s" ("Ryan Park's apartment", "Moreno family's house").
"""

import json
import re
from pathlib import Path

type Tree = dict[str, dict[str, dict[str, list[str]]]]

# A private place: a capitalized owner, then 's and a space or the end ("Tom and Jane Moreno's bedroom").
# Lower-case owners ("artist's co-living space", "man's bathroom") name shared places.
_PRIVATE = re.compile(r"^(?P<owner>[A-Z][^']*?)'s(?:\s|$)")
# world > sector > arena > object: an address has at most four parts.
_DEPTH = 4


class SpatialMemory:
    """A nested tree world > sector > arena > [objects] of the places an agent knows."""

    def __init__(self, tree: Tree | None = None):
        """Copy `tree` (nothing known if None)."""
        self.tree: Tree = _copy_tree(tree or {}, "spatial memory")
        # Addresses added already: perception adds the same few places every step, and this is its fast path.
        self._added: set[str] = set()

    @classmethod
    def from_file(cls, path: Path) -> "SpatialMemory":
        """Read a persona's spatial_memory.json.

        Raises:
            FileNotFoundError: If the file is missing.
            ValueError: If the file is not a JSON tree of world > sector > arena > [objects] (the message names
                the file and the entry at fault).
        """
        try:
            tree = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not valid JSON ({error}); fix the file") from None
        memory = cls()
        memory.tree = _copy_tree(tree, str(path))  # checked and copied once (a town of 1,000 reads 1,000 of them)
        return memory

    @classmethod
    def from_state(cls, state: dict) -> "SpatialMemory":
        """A spatial memory from `get_state`'s data."""
        memory = cls()
        memory.set_state(state)
        return memory

    def add(self, address: str) -> bool:
        """Add a place of any depth ("world:sector[:arena[:object]]") and its parents; True if any was new.

        The empty address (a tile off the world tree, such as a street) adds nothing and returns False.

        Raises:
            ValueError: If the address has an empty part or more than four parts.
        """
        if address == "" or address in self._added:
            return False
        parts = address.split(":")
        if not all(parts) or len(parts) > _DEPTH:
            raise ValueError(f"{address!r} is not an address (world:sector:arena:object, any prefix, no empty part)")
        world, *rest = parts
        new = world not in self.tree
        node: dict = self.tree.setdefault(world, {})
        for depth, part in enumerate(rest, start=2):
            if depth == _DEPTH:
                if part not in node:
                    node.append(part)
                    new = True
                break
            new |= part not in node
            node = node.setdefault(part, [] if depth == _DEPTH - 1 else {})
        self._added.add(address)
        return new

    def knows(self, address: str) -> bool:
        """Whether the agent knows a place (any depth)."""
        node: dict | list = self.tree
        parts = address.split(":")
        if len(parts) > _DEPTH:
            return False
        for part in parts:
            if part not in node:
                return False
            node = node[part] if isinstance(node, dict) else []
        return True

    def choices(self, agent_name: str, home: str = "") -> dict[str, dict[str, list[str]]]:
        """The sectors, arenas and objects the agent may choose for its next action, in the order it learned them.

        Other people's private sectors and arenas are left out; the agent's own home (`home`, its living area
        "world:sector:arena") is its own whatever it is named (someone who moved into "Arthur Burton's apartment"
        sleeps there). A sector is listed only with at least one arena the agent may choose, since an action needs
        an arena.
        """
        last_name = (agent_name.split() or [agent_name])[-1]
        _, home_sector, home_arena = ([*home.split(":"), "", "", ""])[:3]
        result: dict[str, dict[str, list[str]]] = {}
        for sectors in self.tree.values():
            for sector, arenas in sectors.items():
                own = sector == home_sector
                if not (own or may_choose(sector, last_name)):
                    continue
                kept = {
                    arena: list(objects)
                    for arena, objects in arenas.items()
                    if (own and arena == home_arena) or may_choose(arena, last_name)
                }
                if kept:
                    result.setdefault(sector, {}).update(kept)
        return result

    def get_state(self) -> dict:
        """Plain JSON-able data for checkpoints (a copy: later growth does not change it)."""
        return {"tree": _copy_tree(self.tree, "spatial memory")}

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved.

        Raises:
            ValueError: If the data is not in `get_state`'s shape.
        """
        if not isinstance(state, dict) or "tree" not in state:
            raise ValueError("spatial memory state: expected {'tree': {world: {sector: {arena: [objects]}}}}")
        self.tree = _copy_tree(state["tree"], "spatial memory state")
        self._added = set()


def may_choose(place: str, last_name: str) -> bool:
    """Whether a sector or arena is open to someone of this last name: shared, or its owner part holds the name."""
    match = _PRIVATE.match(place)
    return match is None or re.search(rf"\b{re.escape(last_name)}\b", match.group("owner")) is not None


def _copy_tree(tree: object, source: str) -> Tree:
    """A deep copy of a world > sector > arena > [objects] tree, checked on the way.

    Raises:
        ValueError: Naming `source` and the first entry that is not in that shape.
    """
    if not isinstance(tree, dict):
        raise ValueError(f"{source}: expected a tree {{world: {{sector: {{arena: [objects]}}}}}}")
    result: Tree = {}
    for world, sectors in tree.items():
        if not isinstance(sectors, dict):
            raise ValueError(f"{source}: {world!r} should map sectors to arenas, found {type(sectors).__name__}")
        result[world] = {}
        for sector, arenas in sectors.items():
            if not isinstance(arenas, dict):
                raise ValueError(f"{source}: {world}:{sector} should map arenas to objects")
            result[world][sector] = {}
            for arena, objects in arenas.items():
                if not isinstance(objects, list) or not all(isinstance(name, str) for name in objects):
                    raise ValueError(f"{source}: {world}:{sector}:{arena} should hold a list of object names")
                result[world][sector][arena] = list(objects)
    return result
