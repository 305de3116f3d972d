"""A whole town from a few numbers (`run.py town new`): its buildings, their map, its people, as a town folder.

Households are drawn first (their homes carry their names); each home has a room for each member and a kitchen;
the public places are the kinds asked for (cafes, shops, a college, parks, bars), named from generic words. The
map (environment/town_layout.py) and people (generated_people.py) follow from the seed alone. The folder gets the
map as Tiled would save it (map.tmj, special_blocks/, blocks.png) and the people as a personas file (people.toml),
so a user can edit either and import it again (`run.py town import map.tmj --personas people.toml`).
"""

import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from environment import Building, RawMap, Room, Ville, lay_out, tiled_document, write_blocks, write_matrix
from smallville.scenarios.generated_names import PLACE_WORDS
from smallville.scenarios.generated_people import Household, draw_households, people_for, personas_toml
from smallville.scenarios.town_folder import write_town

HOME_OBJECTS = ("bed", "desk", "closet")
KITCHEN_OBJECTS = ("refrigerator", "stove", "kitchen table", "sofa")
# Each kind of public place: how its name is made, and its rooms with their objects (in the words the offline
# mind matches an action to: a counter for serving, a desk for studying, a bench in a park).
PLACES = {
    "cafes": ("{word} Cafe", (("cafe", ("behind the cafe counter", "coffee machine", "cafe customer seating",
                                        "kitchen sink", "refrigerator")),)),
    "shops": ("{word} General Store", (("store", ("behind the store counter", "store shelf", "store counter")),)),
    "colleges": ("{word} College", (("classroom", ("blackboard", "classroom desk", "lectern")),
                                    ("library", ("library table", "bookshelf", "library desk")))),
    "parks": ("{word} Park", (("park", ("park bench", "garden", "fountain")),)),
    "bars": ("The {word} Tavern", (("bar", ("behind the bar counter", "bar customer seating", "piano")),)),
}  # fmt: skip


@dataclass(frozen=True)
class TownPlan:
    """What `town new` is asked for: people, a seed, and how many places of each kind (None: by the people)."""

    people: int
    seed: int = 0
    world: str = "the town"
    cafes: int | None = None
    shops: int | None = None
    colleges: int | None = None
    parks: int | None = None
    bars: int | None = None

    def counts(self) -> dict[str, int]:
        """Places of each kind: as asked, else one per 40 people (cafes, shops), 60 (parks), 80 (bars), 1 college."""
        usual = {
            "cafes": max(1, self.people // 40),
            "shops": max(1, self.people // 40),
            "colleges": 1,
            "parks": max(1, self.people // 60),
            "bars": max(1, self.people // 80),
        }
        return {kind: usual[kind] if getattr(self, kind) is None else getattr(self, kind) for kind in usual}


def plan_buildings(plan: TownPlan, rng: random.Random) -> tuple[list[Household], list[Building]]:
    """The households and every building: a home per household, then the public places."""
    households = draw_households(plan.people, rng)
    buildings, names = [], set()
    for household in households:
        owner = f"{household.last} family" if len(household.members) > 1 else household.members[0].name
        sector = _unique(f"{owner}'s house", names)
        rooms = [Room(f"{member.name}'s room", HOME_OBJECTS, sleeps=True) for member in household.members]
        household.home, household.rooms = sector, [room.name for room in rooms]
        buildings.append(Building(sector, (*rooms, Room("kitchen", KITCHEN_OBJECTS))))
    words = rng.sample(PLACE_WORDS, len(PLACE_WORDS))
    count = 0
    for kind, number in plan.counts().items():
        pattern, rooms = PLACES[kind]
        for _ in range(number):
            sector = _unique(pattern.format(word=words[count % len(words)]), names)
            count += 1
            buildings.append(Building(sector, tuple(Room(n, o) for n, o in rooms), open_air=kind == "parks"))
    return households, buildings


def new_town(plan: TownPlan, folder: Path, name: str = "") -> Path:
    """Lay out and people a town in `folder` (made; must not hold a town yet); its scenario file.

    Raises:
        ValueError: If the plan asks for no people.
    """
    if plan.people < 1:
        raise ValueError(f"a town needs at least one person (got {plan.people})")
    rng = random.Random(plan.seed)
    households, buildings = plan_buildings(plan, rng)
    raw = lay_out(plan.world, buildings, seed=plan.seed)
    folder = Path(folder)
    write_map_files(raw, folder)
    ville = Ville(raw)
    personas = people_for(ville, households, plan.seed, name or folder.name)
    (folder / "people.toml").write_text(personas_toml(personas))
    return write_town(personas, ville, folder, folder / "people.toml", name)


def write_map_files(raw: RawMap, folder: Path) -> None:
    """The map in both forms: matrix/ (what the simulation reads) and map.tmj with its tables (what Tiled opens)."""
    folder.mkdir(parents=True, exist_ok=True)
    write_matrix(raw, folder)
    codes = max(code for table in raw.blocks.values() for code in table)
    tileset = {"firstgid": 1, **block_tileset(codes)}
    (folder / "map.tmj").write_text(json.dumps(tiled_document(raw, tileset)) + "\n")
    (folder / "special_blocks").mkdir(exist_ok=True)
    for layer, table in raw.blocks.items():
        write_blocks(table, folder / "special_blocks" / f"{layer}_blocks.csv")
    _write_block_image(folder / "blocks.png", codes)


def block_tileset(codes: int, columns: int = 16) -> dict:
    """A Tiled tileset of `codes` plain coloured tiles (blocks.png), so tile id n paints code n."""
    rows = -(-codes // columns)
    return {
        "name": "blocks",
        "image": "blocks.png",
        "imagewidth": columns * 32,
        "imageheight": rows * 32,
        "tilewidth": 32,
        "tileheight": 32,
        "columns": columns,
        "tilecount": columns * rows,
        "margin": 0,
        "spacing": 0,
    }


def _write_block_image(path: Path, codes: int, columns: int = 16) -> None:
    """The tileset's picture: tile n a plain colour of its own (the wall, code 1, dark grey)."""
    rows = -(-codes // columns)
    hues = np.linspace(0, 1, 23, endpoint=False)
    index = np.arange(columns * rows)
    colours = np.stack(
        [128 + 100 * np.sin(2 * np.pi * (hues[index % 23] + shift)) for shift in (0, 1 / 3, 2 / 3)], axis=-1
    ).astype(np.uint8)
    colours[0] = (50, 50, 60)
    tiles = colours.reshape(rows, columns, 3)
    Image.fromarray(np.repeat(np.repeat(tiles, 32, axis=0), 32, axis=1)).save(path)


def _unique(name: str, taken: set[str]) -> str:
    """`name`, or "name 2", "name 3"... when taken; marked taken."""
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    taken.add(candidate)
    return candidate
