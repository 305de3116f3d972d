"""The Ville: the tile map as numpy arrays and its world tree (world > sector > arena > game object).

Tiles are (x, y) tuples in the public API; arrays are (height, width) indexed [y, x]. An address is a path in the
tree joined by ":", e.g. "the Ville:Hobbs Cafe:cafe:piano"; every prefix is an address too.
"""

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from environment.errors import UnknownAddress
from environment.tile_map import RawMap, read_map

type Tile = tuple[int, int]


@dataclass(frozen=True)
class Place:
    """Where a tile is in the world tree; None below the deepest level the tile has."""

    world: str | None
    sector: str | None
    arena: str | None
    game_object: str | None

    @property
    def address(self) -> str:
        """The deepest address of the place, "" off the tree."""
        return ":".join(part for part in (self.world, self.sector, self.arena, self.game_object) if part)


class Ville:
    """The static map: walls, the world tree, and which tiles each address covers."""

    def __init__(self, raw: RawMap):
        self.world = raw.world
        self.width, self.height = raw.width, raw.height
        self.collision = raw.layers["collision"] != 0
        sector_names = raw.blocks["sector"]
        arena_names = raw.blocks["arena"]
        object_names = raw.blocks["game_object"]
        spawn_names = raw.blocks["spawning_location"]
        # Index arrays: 0 means none; otherwise 1 + the position in the matching list.
        self._sectors: list[str] = []
        self._arenas: list[tuple[str, str]] = []
        self._objects: list[tuple[str, str, str]] = []
        self.sector_index = np.zeros(self.collision.shape, dtype=np.int32)
        self.arena_index = np.zeros(self.collision.shape, dtype=np.int32)
        self.object_index = np.zeros(self.collision.shape, dtype=np.int32)
        tiles: dict[str, list[Tile]] = defaultdict(list)
        spawns: dict[str, list[Tile]] = defaultdict(list)
        for y, x in zip(*np.nonzero(raw.layers["sector"]), strict=True):
            sector = sector_names[int(raw.layers["sector"][y, x])][1]
            self.sector_index[y, x] = _position(self._sectors, sector)
        for y, x in zip(*np.nonzero(raw.layers["arena"]), strict=True):
            _, sector, arena = arena_names[int(raw.layers["arena"][y, x])]
            self.arena_index[y, x] = _position(self._arenas, (sector, arena))
            self.sector_index[y, x] = self.sector_index[y, x] or _position(self._sectors, sector)
        for y, x in zip(*np.nonzero(raw.layers["game_object"]), strict=True):
            sector, arena = self._arenas[self.arena_index[y, x] - 1] if self.arena_index[y, x] else (None, None)
            if sector is None:
                continue  # an object outside any arena has no address in the tree
            name = object_names[int(raw.layers["game_object"][y, x])][2]
            self.object_index[y, x] = _position(self._objects, (sector, arena, name))
        for y, x in zip(*np.nonzero(raw.layers["spawning_location"]), strict=True):
            _, sector, arena, _ = spawn_names[int(raw.layers["spawning_location"][y, x])]
            spawns[f"{self.world}:{sector}:{arena}"].append((int(x), int(y)))
        for y, x in np.argwhere(self.sector_index > 0):
            place = self.place_at((int(x), int(y)))
            for depth in range(1, 5):
                parts = (place.world, place.sector, place.arena, place.game_object)[:depth]
                if all(parts):
                    tiles[":".join(parts)].append((int(x), int(y)))
        self._tiles = {address: sorted(found) for address, found in tiles.items()}
        self._spawns = {address: sorted(found) for address, found in spawns.items()}
        self.tree: dict[str, dict[str, list[str]]] = {sector: {} for sector in self._sectors}
        for sector, arena in self._arenas:
            self.tree.setdefault(sector, {}).setdefault(arena, [])
        for sector, arena, name in self._objects:
            self.tree[sector][arena].append(name)

    # --- tiles -> places ----------------------------------------------------------------------------------------

    def is_walkable(self, tile: Tile) -> bool:
        """Whether a tile is on the map and not a wall."""
        x, y = tile
        return 0 <= x < self.width and 0 <= y < self.height and not self.collision[y, x]

    def place_at(self, tile: Tile) -> Place:
        """The world-tree place of a tile."""
        x, y = tile
        sector = self.sector_index[y, x]
        arena = self.arena_index[y, x]
        game_object = self.object_index[y, x]
        return Place(
            world=self.world if sector else None,
            sector=self._sectors[sector - 1] if sector else None,
            arena=self._arenas[arena - 1][1] if arena else None,
            game_object=self._objects[game_object - 1][2] if game_object else None,
        )

    def address_at(self, tile: Tile) -> str:
        """The deepest address at a tile, "" off the world tree."""
        return self.place_at(tile).address

    def arena_address_at(self, tile: Tile) -> str:
        """The address of the tile's arena, or of its sector where it has no arena ("" off the tree)."""
        place = self.place_at(tile)
        return ":".join(part for part in (place.world, place.sector, place.arena) if part)

    # --- places -> tiles ----------------------------------------------------------------------------------------

    def has_address(self, address: str) -> bool:
        """Whether an address is in the world tree."""
        return address in self._tiles

    def tiles_of(self, address: str) -> list[Tile]:
        """Every tile an address covers, sorted.

        Raises:
            UnknownAddress: If the address is not in the world tree.
        """
        try:
            return self._tiles[address]
        except KeyError:
            raise UnknownAddress(f"{address!r} is not a place in {self.world}") from None

    def spawn_tiles(self, address: str) -> list[Tile]:
        """The spawning-location tiles inside an arena or sector address ([] if none)."""
        return sorted(tile for arena, tiles in self._spawns.items() if arena.startswith(address) for tile in tiles)

    def sectors(self) -> list[str]:
        """The sectors of the world."""
        return list(self.tree)

    def arenas(self, sector: str) -> list[str]:
        """The arenas of a sector."""
        return list(self.tree.get(sector, {}))

    def objects(self, sector: str, arena: str) -> list[str]:
        """The game objects of an arena."""
        return list(self.tree.get(sector, {}).get(arena, []))

    def object_addresses(self) -> list[str]:
        """The full address of every game object."""
        return [f"{self.world}:{sector}:{arena}:{name}" for sector, arena, name in self._objects]

    def object_tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """All object tiles as an (n, 2) array of (x, y), and each tile's object number (1-based)."""
        ys, xs = np.nonzero(self.object_index)
        return np.stack([xs, ys], axis=1), self.object_index[ys, xs]

    def object_address(self, number: int) -> str:
        """The address of an object by its number (as in `object_tiles`)."""
        sector, arena, name = self._objects[number - 1]
        return f"{self.world}:{sector}:{arena}:{name}"


def _position(names: list, name) -> int:
    """1 + the position of a name in a list, appending it if new."""
    if name not in names:
        names.append(name)
    return names.index(name) + 1


def load_ville(root: Path) -> Ville:
    """Load the map under `root` (a folder holding matrix/, e.g. data/the_ville).

    Raises:
        MapError: If a map file is missing or malformed.
    """
    return Ville(read_map(Path(root)))
