"""A town folder from a map and its people: persona folders, seeded memories and the scenario that names them.

The folder is in the original's format, which the simulation already reads: `matrix/` (the map), `personas/<name>/
bootstrap_memory/{scratch.json, spatial_memory.json}` (identity and the places each knows), `whispers.csv` (seeded
memories, "Name,Whisper") and `scenario.json`, whose paths start with "./" and so are read beside it. Each person
knows their home, their workplace, the places their file lists and the public places nearest their home (places
with no spawning point: nobody sleeps there).
"""

import json
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from environment import Ville
from smallville.scenarios.derived_town import whisper_text
from smallville.scenarios.personas_file import PersonasFile, PersonasFileError, PersonRecord
from smallville.scenarios.scenario import Scenario
from smallville.settings.text_files import first_field_error

# Public places each person knows besides home, work and those listed: the nearest few to home (the Ville's
# personas know 5 to 10 places of 19).
NEAREST_PUBLIC = 5
SCENARIO_FILE = "scenario.json"


def write_town(personas: PersonasFile, ville: Ville, folder: Path, source: Path, name: str = "") -> Path:
    """Write the people of `personas` into the town folder whose map (matrix/) is `ville`; the scenario file.

    Raises:
        PersonasFileError: One line naming the personas file (`source`), the person and the field, when a place
            is not on the map or the scenario it makes is not valid.
    """
    folder = Path(folder)
    public = _public_places(ville)
    used: set[tuple[int, int]] = set()
    starts, rows = [], []
    for number, person in enumerate(personas.people, start=1):
        where = f"{source}: person {number} ({person.name})"
        home = home_arena(ville, person.home, where)
        work = _place(ville, person.workplace, where, "workplace") if person.workplace else ""
        listed = [_place(ville, place, where, "places") for place in person.places]
        tree = _known_tree(ville, [home, work, *listed, *_nearest(ville, public, home)])
        tiles = _start_tiles(ville, home)
        if not tiles:
            raise PersonasFileError(f"{where}: field 'home': {person.home!r} has no tile one can stand on; fix the map")
        start = next((tile for tile in tiles if tile not in used), tiles[0])
        used.add(start)
        bootstrap = folder / "personas" / person.name / "bootstrap_memory"
        bootstrap.mkdir(parents=True, exist_ok=True)
        scratch = _scratch(person, home, work)
        (bootstrap / "scratch.json").write_text(json.dumps(scratch, indent=2) + "\n")
        (bootstrap / "spatial_memory.json").write_text(json.dumps({ville.world: tree}, indent=2) + "\n")
        starts.append({"name": person.name, "tile": list(start)})
        if statements := seeded_memories(person):
            rows.append((person.name, ";".join(statements)))
    (folder / "whispers.csv").write_text(whisper_text(rows))
    scenario = {
        "name": name or personas.town.name or folder.name,
        "description": personas.town.description or f"A town of {len(starts)} people ({source.name}).",
        "map": "./",
        "personas": "./personas",
        "whispers": "./whispers.csv",
        "start": personas.town.start,
        "agents": starts,
        "facts": personas.facts,
        **({"gathering": personas.gathering} if personas.gathering else {}),
    }
    try:
        checked = Scenario.model_validate(scenario)
    except ValidationError as error:
        raise PersonasFileError(f"{source}: {first_field_error(error)}; fix that field") from None
    if checked.gathering and not ville.has_address(checked.gathering.place):
        raise PersonasFileError(
            f"{source}: field 'gathering.place': {checked.gathering.place!r} is not a place on the map; "
            f"give world:sector[:arena], e.g. {ville.world + ':' + ville.sectors()[0]!r}"
        )
    for fact in checked.facts:
        if unknown := [source_name for source_name in fact.sources if source_name not in checked.agent_names]:
            raise PersonasFileError(f"{source}: fact {fact.id!r}: field 'sources': {unknown[0]!r} is nobody here")
    path = folder / SCENARIO_FILE
    path.write_text(scenario_text(scenario))
    return path


def scenario_text(scenario: dict) -> str:
    """A scenario as JSON, one agent a line (a town of a thousand stays readable)."""
    text = json.dumps({**scenario, "agents": []}, indent=2)
    rows = ",\n".join(f"    {json.dumps(agent)}" for agent in scenario["agents"])
    return text.replace('"agents": []', f'"agents": [\n{rows}\n  ]') + "\n"


def _start_tiles(ville: Ville, home: str) -> list[tuple[int, int]]:
    """Where people of a home room start: its spawning points, then its beds, then its other walkable tiles.

    The map's checks (environment/map_checks.py) made sure every room can be walked into from the town.
    """
    beds = ville.tiles_of(f"{home}:bed") if ville.has_address(f"{home}:bed") else []
    ordered = dict.fromkeys([*ville.spawn_tiles(home), *beds, *ville.tiles_of(home)])
    return [tile for tile in ordered if ville.is_walkable(tile)]


def home_arena(ville: Ville, home: str, where: str) -> str:
    """The address of a person's home room: "sector:arena" as given, or a sector's first room people sleep in.

    Raises:
        PersonasFileError: If the place is not on the map.
    """
    address = _place(ville, home, where, "home")
    if address.count(":") >= 2:
        return address
    sector = address.split(":")[1]
    rooms = [f"{address}:{arena}" for arena in ville.arenas(sector)]
    sleeping = [room for room in rooms if ville.spawn_tiles(room)]
    if not (sleeping or rooms):
        raise PersonasFileError(f"{where}: field 'home': {home!r} has no room (arena); give 'sector:arena'")
    return (sleeping or rooms)[0]


def _place(ville: Ville, place: str, where: str, field: str) -> str:
    address = f"{ville.world}:{place.strip()}"
    if not ville.has_address(address) or address.count(":") > 2:
        example = ville.sectors()[0]
        raise PersonasFileError(
            f"{where}: field {field!r}: {place!r} is not a sector or sector:arena of the map; e.g. {example!r}"
        )
    return address


def _public_places(ville: Ville) -> dict[str, np.ndarray]:
    """Each public sector (no spawning point in it) -> the mean (x, y) of its tiles."""
    return {
        f"{ville.world}:{sector}": np.mean(ville.tiles_of(f"{ville.world}:{sector}"), axis=0)
        for sector in ville.sectors()
        if not ville.spawn_tiles(f"{ville.world}:{sector}")
    }


def _nearest(ville: Ville, public: dict[str, np.ndarray], home: str) -> list[str]:
    centre = np.mean(ville.tiles_of(home), axis=0)
    ranked = sorted(public, key=lambda sector: (float(np.abs(public[sector] - centre).sum()), sector))
    return ranked[:NEAREST_PUBLIC]


def _known_tree(ville: Ville, addresses: list[str]) -> dict[str, dict[str, list[str]]]:
    """The part of the world tree a person knows: each address's whole sector, or just the room for a home room."""
    tree: dict[str, dict[str, list[str]]] = {}
    for address in addresses:
        if not address:
            continue
        _, sector, *arena = address.split(":")
        arenas = arena or ville.arenas(sector)
        if address == addresses[0]:  # home: the own room and the home's other rooms
            arenas = ville.arenas(sector)
        rooms = tree.setdefault(sector, {})
        for name in arenas:
            rooms[name] = ville.objects(sector, name)
    return tree


def _scratch(person: PersonRecord, home: str, work: str) -> dict:
    """The persona's scratch.json: the fields agents/persona.py reads."""
    first, *_, last = person.name.split()
    workplace = f" at {work.split(':')[1]}" if work else ""
    article = "an" if person.occupation[:1].lower() in "aeiou" else "a"
    learned = f"{person.name} is {article} {person.occupation}{workplace}. {person.about}".strip()
    return {
        "name": person.name,
        "first_name": first,
        "last_name": last,
        "age": person.age,
        "innate": person.traits,
        "learned": learned,
        "currently": person.currently or f"{person.name} is going about the usual days in town.",
        "lifestyle": person.lifestyle,
        "living_area": home,
        "daily_plan_req": person.daily_requirements,
    }


def seeded_memories(person: PersonRecord) -> list[str]:
    """A person's seeded memories as whispers: what they know of each other person, then their own memories."""
    statements = []
    for other, text in person.knows.items():
        statements.append(text if other in text else f"{other} is {text}")
    statements.extend(person.memories)
    return [statement.replace(";", ",") for statement in statements]
