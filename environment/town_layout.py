"""A town laid out from lists of buildings: walls, doors, rooms and streets as the original's five layers.

The caller says what stands in the town (its neighbourhoods, each building's sector name, its rooms, each room's
objects, which rooms people sleep in); this module only places them: each neighbourhood a block of buildings in rows
along streets, the blocks in rows of their own, a door in each building's front wall facing the street below it, rooms
side by side behind a hallway, objects along a room's back wall, a spawning point where a sleeper starts. A park is open
ground (no walls). Every room can be walked into from every street, and the result passes the same checks as a map drawn
in Tiled (map_checks.py).
"""

import math
import random
from dataclasses import dataclass

import numpy as np

from environment.map_checks import check_map
from environment.tile_map import RawMap

# Tiles between the outer wall and the first row of buildings, and between rows: a street two tiles wide.
STREET = 2
# A room's inside is this many rows high; it is at least this many tiles wide (more when it holds more objects).
ROOM_ROWS = 4
ROOM_COLUMNS = 3
# How much wider than tall a town of several neighbourhoods is laid out: about the page's map, so it fills it.
ASPECT = 1.5
# The code of the wall tile on the collision layer (any non-zero code is a wall).
WALL = 1


@dataclass(frozen=True)
class Room:
    """A room (an arena): its name, its objects, and whether people sleep in it (then it gets a spawning point)."""

    name: str
    objects: tuple[str, ...]
    sleeps: bool = False


@dataclass(frozen=True)
class Building:
    """A place of the town (a sector) and its rooms; `open_air` ones (parks) have no walls."""

    sector: str
    rooms: tuple[Room, ...]
    open_air: bool = False

    def footprint(self) -> tuple[int, int]:
        """(width, height) in tiles, walls included."""
        widths = [_room_width(room) for room in self.rooms]
        width = sum(widths) + len(widths) - 1 + 2
        height = ROOM_ROWS + 2 if len(self.rooms) == 1 else ROOM_ROWS + 4  # rooms, a wall with doors, a hallway
        return width, height


def _room_width(room: Room) -> int:
    return max(ROOM_COLUMNS, math.ceil(len(room.objects) / 2) + 1)


def lay_out(world: str, neighbourhoods: list[list[Building]], seed: int = 0) -> RawMap:
    """The map of a town of these neighbourhoods, each a block of its buildings in a seeded order along its streets.

    A neighbourhood's buildings stand together in a block of about a square's shape, and the blocks stand in rows
    of their own, streets between them: a town that grows by neighbourhoods keeps each one's walks as short as in a
    town of one. The same for the same seed.

    Raises:
        ValueError: If there is no building, two buildings share a sector name, or a name is unusable.
    """
    buildings = [building for block in neighbourhoods for building in block]
    if not buildings:
        raise ValueError("a town needs at least one building")
    sectors = [building.sector for building in buildings]
    if len(set(sectors)) != len(sectors):
        raise ValueError(f"two buildings are named {next(s for s in sectors if sectors.count(s) > 1)!r}")
    rng = random.Random(seed)
    blocks = [_block([*block], rng) for block in neighbourhoods if block]
    block_rows = _rows_of_blocks([(width, height) for _, width, height in blocks])
    width = 1 + STREET + max(sum(blocks[index][1] for index in row) for row in block_rows) + 1
    height = 1 + STREET + sum(max(blocks[index][2] for index in row) for row in block_rows) + 1
    codes = _Codes(world)
    layers = {name: np.zeros((height, width), dtype=np.int64) for name in codes.layers}
    layers["collision"][[0, -1], :] = WALL
    layers["collision"][:, [0, -1]] = WALL
    top = 1 + STREET
    for row in block_rows:
        left = 1 + STREET
        for index in row:
            placed, block_width, _ = blocks[index]
            for building, x, y in placed:
                _draw(layers, codes, building, left + x, top + y)
            left += block_width
        top += max(blocks[index][2] for index in row)
    raw = RawMap(world=world, width=width, height=height, layers=layers, blocks=codes.tables)
    names = {layer: layer for layer in codes.layers}
    check_map(raw, "generated town", names, {layer: f"{layer}_blocks" for layer in codes.layers})
    return raw


def _block(buildings: list[Building], rng: random.Random) -> tuple[list[tuple[Building, int, int]], int, int]:
    """One neighbourhood's buildings, shuffled, in rows along streets; each with its (x, y) in the block.

    Also the block's width and height, counting the street on its right and the one below each row.
    """
    rng.shuffle(buildings)
    footprints = [building.footprint() for building in buildings]
    rows, inner = _rows([(width + 1, height + STREET) for width, height in footprints])
    placed, top = [], 0
    for row in rows:
        row_height = max(footprints[index][1] for index in row)
        left = 0
        for index in row:
            building_width, building_height = footprints[index]
            placed.append((buildings[index], left, top + row_height - building_height))  # doors face the street
            left += building_width + 1
        top += row_height + STREET
    return placed, inner + STREET, top


def _rows_of_blocks(sizes: list[tuple[int, int]]) -> list[list[int]]:
    """The blocks' indices in rows of equal count, the count that makes the town nearest ASPECT wide for tall."""
    width = sum(size[0] for size in sizes) / len(sizes)
    height = sum(size[1] for size in sizes) / len(sizes)
    count = min(
        range(1, len(sizes) + 1),
        key=lambda count: abs(math.log(count * width / (math.ceil(len(sizes) / count) * height) / ASPECT)),
    )
    return [list(range(start, min(start + count, len(sizes)))) for start in range(0, len(sizes), count)]


def _rows(sizes: list[tuple[int, int]]) -> tuple[list[list[int]], int]:
    """Items of these (width, height), each counting its gaps, in rows about as wide as a square of their area.

    Returns the indices of each row's items, and that width.
    """
    area = sum(width * height for width, height in sizes)
    inner = max(*(width for width, _ in sizes), math.ceil(math.sqrt(area)))
    rows: list[list[int]] = [[]]
    used = 0
    for index, (width, _) in enumerate(sizes):
        if rows[-1] and used + width > inner:
            rows.append([])
            used = 0
        rows[-1].append(index)
        used += width
    return rows, inner


class _Codes:
    """Codes handed out in order across all tables (so one Tiled tileset can show them all), and the tables."""

    layers = ("collision", "sector", "arena", "game_object", "spawning_location")

    def __init__(self, world: str):
        self.world = world
        self.tables: dict[str, dict[int, tuple[str, ...]]] = {layer: {} for layer in ("world", *self.layers[1:])}
        self.tables["world"][2] = (world,)
        self._next = 3  # 1 is the wall, 2 the world
        self._objects: dict[str, int] = {}

    def _add(self, layer: str, names: tuple[str, ...]) -> int:
        code, self._next = self._next, self._next + 1
        self.tables[layer][code] = (self.world, *names)
        return code

    def sector(self, name: str) -> int:
        return self._add("sector", (name,))

    def arena(self, sector: str, name: str) -> int:
        return self._add("arena", (sector, name))

    def game_object(self, name: str) -> int:
        if name not in self._objects:
            self._objects[name] = self._add("game_object", ("<all>", name))
        return self._objects[name]

    def spawn(self, sector: str, arena: str) -> int:
        return self._add("spawning_location", (sector, arena, "sp-A"))


def _draw(layers: dict[str, np.ndarray], codes: _Codes, building: Building, left: int, top: int) -> None:
    """Draw one building with its top-left corner at (left, top)."""
    width, height = building.footprint()
    box = (slice(top, top + height), slice(left, left + width))
    layers["sector"][box] = codes.sector(building.sector)
    if not building.open_air:
        wall = layers["collision"]
        wall[top, left : left + width] = WALL
        wall[top + height - 1, left : left + width] = WALL
        wall[top : top + height, left] = WALL
        wall[top : top + height, left + width - 1] = WALL
        wall[top + height - 1, left + width // 2] = 0  # the front door, onto the street below
    x = left + 1
    for room in building.rooms:
        room_width = _room_width(room)
        inside = (slice(top + 1, top + 1 + ROOM_ROWS), slice(x, x + room_width))
        arena = codes.arena(building.sector, room.name)
        layers["arena"][inside] = arena
        if building.open_air:  # the path around a park belongs to it too
            layers["arena"][box] = arena
        for index, name in enumerate(room.objects):
            row, column = divmod(index, room_width - 1)
            layers["game_object"][top + 1 + row, x + column] = codes.game_object(name)
        if room.sleeps:
            layers["spawning_location"][top + ROOM_ROWS, x + room_width - 1] = codes.spawn(building.sector, room.name)
        if len(building.rooms) > 1 and not building.open_air:
            layers["collision"][top + 1 + ROOM_ROWS, x - 1 : x + room_width + 1] = WALL  # between room and hallway
            layers["collision"][top + 1 + ROOM_ROWS, x + room_width // 2] = 0  # the room's door
            layers["collision"][top + 1 : top + 1 + ROOM_ROWS, x + room_width] = WALL  # the wall to the next room
        x += room_width + 1
    if len(building.rooms) > 1 and not building.open_air:
        layers["collision"][top + 1 : top + 1 + ROOM_ROWS, left + width - 1] = WALL
