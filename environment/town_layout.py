"""A town laid out from a list of buildings: walls, doors, rooms and streets as the original's five layers.

The caller says what stands in the town (each building's sector name, its rooms, each room's objects, which rooms
people sleep in); this module only places them: buildings in rows along streets, a door in each building's front
wall facing the street below it, rooms side by side behind a hallway, objects along a room's back wall, a spawning
point where a sleeper starts. A park is open ground (no walls). Every room can be walked into from every street,
and the result passes the same checks as a map drawn in Tiled (map_checks.py).
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


def lay_out(world: str, buildings: list[Building], seed: int = 0) -> RawMap:
    """The map of a town of these buildings, in a seeded order along its streets; the same for the same seed.

    Raises:
        ValueError: If there is no building, two buildings share a sector name, or a name is unusable.
    """
    if not buildings:
        raise ValueError("a town needs at least one building")
    sectors = [building.sector for building in buildings]
    if len(set(sectors)) != len(sectors):
        raise ValueError(f"two buildings are named {next(s for s in sectors if sectors.count(s) > 1)!r}")
    order = list(buildings)
    random.Random(seed).shuffle(order)
    rows, width = _rows(order)
    height = 1 + STREET + sum(max(b.footprint()[1] for b in row) + STREET for row in rows) + 1
    codes = _Codes(world)
    layers = {name: np.zeros((height, width), dtype=np.int64) for name in codes.layers}
    layers["collision"][[0, -1], :] = WALL
    layers["collision"][:, [0, -1]] = WALL
    top = 1 + STREET
    for row in rows:
        row_height = max(b.footprint()[1] for b in row)
        left = 1 + STREET
        for building in row:
            building_width, building_height = building.footprint()
            _draw(layers, codes, building, left, top + row_height - building_height)
            left += building_width + 1
        top += row_height + STREET
    raw = RawMap(world=world, width=width, height=height, layers=layers, blocks=codes.tables)
    names = {layer: layer for layer in codes.layers}
    check_map(raw, "generated town", names, {layer: f"{layer}_blocks" for layer in codes.layers})
    return raw


def _rows(buildings: list[Building]) -> tuple[list[list[Building]], int]:
    """The buildings in rows of about a square town's width, and the map's width."""
    area = sum((w + 1) * (h + STREET) for w, h in (b.footprint() for b in buildings))
    widest = max(b.footprint()[0] for b in buildings)
    inner = max(widest + 1, math.ceil(math.sqrt(area)))
    rows: list[list[Building]] = [[]]
    used = 0
    for building in buildings:
        needed = building.footprint()[0] + 1
        if rows[-1] and used + needed > inner:
            rows.append([])
            used = 0
        rows[-1].append(building)
        used += needed
    return rows, 1 + STREET + inner + STREET + 1


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
