"""The Ville: the tile map as numpy arrays and its world tree (world > sector > arena > game object).

Tiles are (x, y) tuples in the public API; arrays are (height, width) indexed [y, x]. An address is a path in the
tree joined by ":", e.g. "the Ville:Hobbs Cafe:cafe:piano"; every prefix is an address too. An object's address
takes its sector and arena from its tile, so two pianos in one arena are one object with two tiles.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from environment.errors import UnknownAddress
from environment.map_copies import side_by_side
from environment.tile_map import RawMap, cell_names, read_map

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
    """The static map: walls, the world tree, and which tiles each address covers.

    Attributes:
        world: The world's name, "the Ville".
        width, height: The map's size in tiles (140 x 100).
        collision: Walls, bool (height, width) indexed [y, x].
        sector_index, arena_index, object_index: Per tile, 0 for none or 1 + the place's number (int32 arrays).
        tree: sector -> arena -> [objects], in the order the map reads row by row.
    """

    def __init__(self, raw: RawMap):
        self.world = raw.world
        self.width, self.height = raw.width, raw.height
        self.collision = raw.layers["collision"] != 0
        layers, blocks = raw.layers, raw.blocks
        sectors = cell_names(layers["sector"], blocks["sector"], slice(1, 2))
        arenas = cell_names(layers["arena"], blocks["arena"], slice(1, 3))
        has_object = layers["game_object"] > 0
        objects = np.full(has_object.shape, "", dtype=object)
        object_names = cell_names(layers["game_object"], blocks["game_object"], slice(2, 3))
        objects[has_object] = arenas[has_object] + ":" + object_names[has_object]
        self._sectors, self.sector_index = _number(sectors)
        self._arenas, self.arena_index = _number(arenas)
        self._objects, self.object_index = _number(objects)
        # Each arena's and object's names as a tuple, for place_at (called every step for every agent).
        self._arena_parts = [tuple(name.split(":")) for name in self._arenas]
        self._object_parts = [tuple(name.split(":")) for name in self._objects]
        self._tiles: dict[str, list[Tile]] = {}
        for names, index in (
            (self._sectors, self.sector_index),
            (self._arenas, self.arena_index),
            (self._objects, self.object_index),
        ):
            self._tiles.update(_tiles_by_name(names, index, self.world))
        self._tiles[self.world] = sorted(_xy(np.argwhere(self.sector_index > 0)))
        spawns = cell_names(layers["spawning_location"], blocks["spawning_location"], slice(1, 3))
        self._spawns = {
            f"{self.world}:{name}": sorted(_xy(np.argwhere(spawns == name))) for name in np.unique(spawns) if name
        }
        self.tree: dict[str, dict[str, list[str]]] = {sector: {} for sector in self._sectors}
        for sector, arena in self._arena_parts:
            self.tree[sector][arena] = []
        for sector, arena, game_object in self._object_parts:
            self.tree[sector][arena].append(game_object)
        self._arena_addresses: dict[Tile, str] = {}  # arena_address_at's answers (every perception asks one)

    # --- tiles -> places ----------------------------------------------------------------------------------------

    def is_walkable(self, tile: Tile) -> bool:
        """Whether a tile is on the map and not a wall."""
        x, y = tile
        return 0 <= x < self.width and 0 <= y < self.height and not self.collision[y, x]

    def place_at(self, tile: Tile) -> Place:
        """The world-tree place of a tile.

        Raises:
            ValueError: If the tile is off the map.
        """
        x, y = self._on_map(tile)
        sector, arena, game_object = self.sector_index[y, x], self.arena_index[y, x], self.object_index[y, x]
        return Place(
            world=self.world if sector else None,
            sector=self._sectors[sector - 1] if sector else None,
            arena=self._arena_parts[arena - 1][1] if arena else None,
            game_object=self._object_parts[game_object - 1][2] if game_object else None,
        )

    def address_at(self, tile: Tile) -> str:
        """The deepest address at a tile, "" off the world tree."""
        return self.place_at(tile).address

    def arena_address_at(self, tile: Tile) -> str:
        """The address of the tile's arena, or of its sector where it has no arena ("" off the tree)."""
        key = (int(tile[0]), int(tile[1]))
        address = self._arena_addresses.get(key)
        if address is None:
            place = self.place_at(key)
            address = ":".join(part for part in (place.world, place.sector, place.arena) if part)
            self._arena_addresses[key] = address
        return address

    # --- places -> tiles ----------------------------------------------------------------------------------------

    def has_address(self, address: str) -> bool:
        """Whether an address is in the world tree."""
        return address in self._tiles

    def tiles_of(self, address: str) -> list[Tile]:
        """Every tile an address covers, sorted by (x, y).

        Raises:
            UnknownAddress: If the address is not in the world tree.
        """
        return list(self._known(address))

    def spawn_tiles(self, address: str) -> list[Tile]:
        """The spawning-location tiles inside an arena or sector address, sorted ([] if it has none).

        Raises:
            UnknownAddress: If the address is not in the world tree.
        """
        self._known(address)
        inside = (tiles for arena, tiles in self._spawns.items() if f"{arena}:".startswith(f"{address}:"))
        return sorted(tile for tiles in inside for tile in tiles)

    def sectors(self) -> list[str]:
        """The sectors of the world."""
        return list(self.tree)

    def arenas(self, sector: str) -> list[str]:
        """The arenas of a sector ([] for an unknown sector)."""
        return list(self.tree.get(sector, {}))

    def objects(self, sector: str, arena: str) -> list[str]:
        """The game objects of an arena ([] for an unknown arena)."""
        return list(self.tree.get(sector, {}).get(arena, []))

    def object_addresses(self) -> list[str]:
        """The full address of every game object."""
        return [f"{self.world}:{name}" for name in self._objects]

    def object_tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """All object tiles as an (n, 2) array of (x, y) in row-major order, and each tile's object number."""
        ys, xs = np.nonzero(self.object_index)
        return np.stack([xs, ys], axis=1), self.object_index[ys, xs]

    def object_address(self, number: int) -> str:
        """The address of an object by its number (as in `object_tiles` and `object_index`)."""
        return f"{self.world}:{self._objects[number - 1]}"

    def _on_map(self, tile: Tile) -> Tile:
        x, y = tile
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"tile {tile} is off the map (x in 0..{self.width - 1}, y in 0..{self.height - 1})")
        return x, y

    def _known(self, address: str) -> list[Tile]:
        try:
            return self._tiles[address]
        except KeyError:
            raise UnknownAddress(
                f"{address!r} is not a place in {self.world} (an address reads world:sector:arena:object, "
                f"e.g. '{self.world}:Hobbs Cafe:cafe:piano')"
            ) from None


def _number(names: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The distinct non-empty names in row-major order of first appearance, and each cell's 1-based number."""
    unique, first, inverse = np.unique(names.ravel(), return_index=True, return_inverse=True)
    order = [int(i) for i in np.argsort(first) if unique[i]]
    numbers = np.zeros(len(unique), dtype=np.int32)
    numbers[order] = np.arange(1, len(order) + 1, dtype=np.int32)
    return [str(unique[i]) for i in order], numbers[inverse].reshape(names.shape)


def _tiles_by_name(names: list[str], index: np.ndarray, world: str) -> dict[str, list[Tile]]:
    """Each place's address -> its tiles sorted by (x, y)."""
    ys, xs = np.nonzero(index)
    order = np.lexsort((ys, xs, index[ys, xs]))
    numbers, xs, ys = index[ys, xs][order], xs[order], ys[order]
    starts = np.searchsorted(numbers, np.arange(1, len(names) + 2))
    return {
        f"{world}:{name}": list(zip(xs[a:b].tolist(), ys[a:b].tolist(), strict=True))
        for name, a, b in zip(names, starts[:-1], starts[1:], strict=True)
    }


def _xy(yx: np.ndarray) -> list[Tile]:
    return [(int(x), int(y)) for y, x in yx]


def load_ville(root: Path, copies: int = 1) -> Ville:
    """Load the map under `root` (a folder holding matrix/, e.g. data/the_ville), laid `copies` times side by side.

    Raises:
        MapError: If a map file is missing or malformed.
    """
    return Ville(side_by_side(read_map(Path(root)), copies))
