"""The Ville: the tile map as numpy arrays and its world tree (world > sector > arena > game object).

Tiles are (x, y) tuples in the public API; arrays are (height, width) indexed [y, x]. An address is a path in the
tree joined by ":", e.g. "the Ville:Hobbs Cafe:cafe:piano"; every prefix is an address too. An object's address
takes its sector and arena from its tile, so two pianos in one arena are one object with two tiles.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from environment.errors import UnknownAddress
from environment.map_copies import side_by_side
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
        # Places are numbered from the layers' integer codes, never from per-cell arrays of names: at 1,000 people
        # (78,000 cells) numpy object arrays of names cost 1.1 s of the start, integer codes a few milliseconds.
        sector_label = _labeller(blocks["sector"], slice(1, 2))
        arena_label = _labeller(blocks["arena"], slice(1, 3))
        object_label = _labeller(blocks["game_object"], slice(2, 3))
        self._sectors, self.sector_index = _number(layers["sector"], sector_label)
        self._arenas, self.arena_index = _number(layers["arena"], arena_label)
        # An object is its arena's name and its own: one code per (arena code, object code) pair on the map.
        object_codes, arena_codes = layers["game_object"].astype(np.int64), layers["arena"].astype(np.int64)
        per_arena = int(object_codes.max()) + 1
        pairs = np.where(object_codes > 0, arena_codes * per_arena + object_codes, 0)
        self._objects, self.object_index = _number(
            pairs, lambda pair: f"{arena_label(pair // per_arena)}:{object_label(pair % per_arena)}" if pair else ""
        )
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
        self._tiles[self.world] = _sorted_tiles(self.sector_index > 0)
        spawns = _tiles_by_name(
            *_number(layers["spawning_location"], _labeller(blocks["spawning_location"], slice(1, 3))), self.world
        )
        self._spawns = dict(sorted(spawns.items()))
        self._spawn_arenas: dict[str, list[str]] = {}  # a sector's address -> its arenas with spawning points
        for arena in self._spawns:
            self._spawn_arenas.setdefault(":".join(arena.split(":")[:2]), []).append(arena)
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
        parts = address.split(":")
        arenas = self._spawns if len(parts) == 1 else self._spawn_arenas.get(":".join(parts[:2]), [])
        inside = (self._spawns[arena] for arena in arenas if f"{arena}:".startswith(f"{address}:"))
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


def _labeller(table: dict[int, tuple[str, ...]], part: slice) -> Callable[[int], str]:
    """A code's name (the `part` of its block row, joined by ":"), "" for code 0."""
    return lambda code: ":".join(table[int(code)][part]) if code else ""


def _number(codes: np.ndarray, label: Callable[[int], str]) -> tuple[list[str], np.ndarray]:
    """The distinct non-empty names of the cells' codes, in row-major order of first appearance, and numbers.

    Each cell's number is 1 + its name's place in that list, 0 where the name is empty; codes that share a name share
    its number.
    """
    unique, first, inverse = np.unique(codes.ravel(), return_index=True, return_inverse=True)
    labels = [label(int(code)) for code in unique]
    first_cell: dict[str, int] = {}
    for name, cell in zip(labels, first.tolist(), strict=True):
        if name and cell < first_cell.get(name, cell + 1):
            first_cell[name] = cell
    names = sorted(first_cell, key=first_cell.__getitem__)
    number = {name: i for i, name in enumerate(names, start=1)}
    per_code = np.array([number.get(name, 0) for name in labels], dtype=np.int32)
    return names, per_code[inverse].reshape(codes.shape)


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


def _sorted_tiles(mask: np.ndarray) -> list[Tile]:
    """The tiles where a (height, width) mask holds, sorted by (x, y)."""
    ys, xs = np.nonzero(mask)
    order = np.lexsort((ys, xs))
    return list(zip(xs[order].tolist(), ys[order].tolist(), strict=True))


def load_ville(root: Path, copies: int = 1) -> Ville:
    """Load the map under `root` (a folder holding matrix/, e.g. data/the_ville), laid `copies` times side by side.

    Raises:
        MapError: If a map file is missing or malformed.
    """
    return Ville(side_by_side(read_map(Path(root)), copies))
