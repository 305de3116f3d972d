"""A whole town from a few numbers (`run.py town new`): its buildings, their map, its people, as a town folder.

Households are drawn first (their homes carry their names); each home has a room for each member and a kitchen; the
public places are the kinds asked for (cafes, shops, a college, parks, bars), named from generic words. A town grows by
neighbourhoods of about 25 people (the paper's town), each a block of its homes and its own public places where its
people work, study and go out: a town of a thousand is forty small towns side by side, so what a person sees, remembers
and walks stays what it is in a town of 25. The map (environment/town_layout.py) and people (generated_people.py) follow
from the seed alone. The folder gets the map as Tiled would save it (map.tmj, special_blocks/, blocks.png) and the
people as a personas file (people.toml), so a user can edit either and import it again (`run.py town import map.tmj
--personas people.toml`).
"""

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from environment import Building, RawMap, Room, Ville, lay_out, tiled_document, write_blocks, write_matrix
from smallville.scenarios.generated_names import NEIGHBOURHOOD, PLACE_WORDS
from smallville.scenarios.generated_people import (
    Household,
    draw_households,
    people_for,
    personas_toml,
    public_places,
)
from smallville.scenarios.personas_file import PersonasFile, TownRecord
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
    """What `town new` is asked for: people, a seed, a neighbourhood's size, and places of each kind in the town.

    A count of None is one of each kind a neighbourhood.
    """

    people: int
    seed: int = 0
    world: str = "the town"
    cafes: int | None = None
    shops: int | None = None
    colleges: int | None = None
    parks: int | None = None
    bars: int | None = None
    neighbourhood: int = NEIGHBOURHOOD

    def neighbourhoods(self) -> int:
        """How many neighbourhoods: the people over a neighbourhood's size, rounded, at least one."""
        return max(1, round(self.people / max(1, self.neighbourhood)))

    def counts(self) -> dict[str, int]:
        """Places of each kind in the town: as asked, else one of each kind a neighbourhood."""
        kinds = ("cafes", "shops", "colleges", "parks", "bars")
        return {kind: self.neighbourhoods() if getattr(self, kind) is None else getattr(self, kind) for kind in kinds}


@dataclass
class Neighbourhood:
    """A block of the town: its households with their homes, and the public places its people use."""

    households: list[Household] = field(default_factory=list)
    homes: list[Building] = field(default_factory=list)
    places: list[Building] = field(default_factory=list)


def plan_neighbourhoods(plan: TownPlan, rng: random.Random) -> list[Neighbourhood]:
    """The households in neighbourhoods of about equal people, a home for each, and the public places.

    The places are dealt out among the neighbourhoods in turn, so a kind asked for fewer times than there are
    neighbourhoods stands in the first ones.
    """
    households = draw_households(plan.people, rng)
    neighbourhoods = [Neighbourhood() for _ in range(plan.neighbourhoods())]
    names: set[str] = set()
    housed = 0
    for household in households:
        owner = f"{household.last} family" if len(household.members) > 1 else household.members[0].name
        sector = _unique(f"{owner}'s house", names)
        rooms = [Room(f"{member.name}'s room", HOME_OBJECTS, sleeps=True) for member in household.members]
        household.home, household.rooms = sector, [room.name for room in rooms]
        neighbourhood = neighbourhoods[housed * len(neighbourhoods) // plan.people]
        neighbourhood.households.append(household)
        neighbourhood.homes.append(Building(sector, (*rooms, Room("kitchen", KITCHEN_OBJECTS))))
        housed += len(household.members)
    words = rng.sample(PLACE_WORDS, len(PLACE_WORDS))
    count = 0
    for kind, number in plan.counts().items():
        pattern, rooms = PLACES[kind]
        for index in range(number):
            sector = _unique(pattern.format(word=words[count % len(words)]), names)
            count += 1
            place = Building(sector, tuple(Room(n, o) for n, o in rooms), open_air=kind == "parks")
            neighbourhoods[index % len(neighbourhoods)].places.append(place)
    return neighbourhoods


def new_town(plan: TownPlan, folder: Path, name: str = "") -> Path:
    """Lay out and people a town in `folder` (made; must not hold a town yet); its scenario file.

    Raises:
        ValueError: If the plan asks for no people.
    """
    if plan.people < 1:
        raise ValueError(f"a town needs at least one person (got {plan.people})")
    neighbourhoods = plan_neighbourhoods(plan, random.Random(plan.seed))
    raw = lay_out(plan.world, [[*hood.homes, *hood.places] for hood in neighbourhoods], seed=plan.seed)
    folder = Path(folder)
    write_map_files(raw, folder)
    ville = Ville(raw)
    people, town_places = [], public_places(ville)
    for index, hood in enumerate(neighbourhoods):
        seed = plan.seed if index == 0 else f"{plan.seed}/{index}"  # the first as a town of one neighbourhood
        places = [place.sector for place in hood.places]
        people += people_for(ville, hood.households, seed, places=places, town_places=town_places).people
    personas = PersonasFile(town=TownRecord(name=name or folder.name), people=people)
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
