"""A bigger town from the 25: copies of the personas with new names and homes, for the scale series.

Copy k (k = 1, 2, ...) of the 25 keeps each original's occupation, traits, routine and seeded memories, renamed so
that every person a copy's text names is a person of the same copy (smallville/scenarios/derived_names.py). Each copy's
households (the people who share a home sector in the original) move to other homes: a seeded permutation of the
Ville's living quarters (the sectors with spawning locations), so every house gains one household per copy and
housemates stay housemates. Nothing of a copy states a tracked fact: the news and the gathering keep their original
sources, and a bigger town only adds people who may hear of them (see `drops_fact`).

The n-agent town holds the 25 originals and then the copies in order, so a smaller derived town is the start of a
bigger one; every file is a function of the seed, and `write_derived_town` writes them (data/the_ville/...).
"""

import csv
import io
import json
import random
import re
from pathlib import Path

import numpy as np

from agents import load_whispers
from environment import PathFinder, Ville, copy_offset, copy_sector_name, load_ville
from smallville.scenarios.derived_names import draw_copy_names, gender_of, renamer
from smallville.scenarios.scenario import DATA_DIR, Scenario, TrackedFact, load_scenario

SOURCE_SCENARIO = "the_ville_n25"
PERSONA_DIR = "the_ville/base_the_ville_derived/personas"
WHISPER_FILE = "the_ville/agent_history_init_derived.csv"
TEXT_FIELDS = ("innate", "learned", "currently", "lifestyle", "daily_plan_req")
# The scratch.json fields the loader reads (agents/persona.py); the rest of the original's file is run-time state.
KEPT_FIELDS = ("vision_r", "att_bandwidth", "retention", "recency_decay", "importance_trigger_max", "age")


def drops_fact(sentence: str, context: str, facts: list[TrackedFact]) -> bool:
    """Whether a copy leaves out a sentence: its text (`context`) states a tracked fact and the sentence carries it.

    A sentence carries a fact when it matches all of the fact's keyword groups but at most one ("She is telling
    everyone to join the party at Hobbs Cafe" carries the party without naming Valentine's Day); a sentence naming
    only the fact's person ("Sam Moore lives with his wife") is kept.
    """
    for fact in facts:
        if fact.matches(context):
            matched = sum(
                TrackedFact(id="group", description="", keywords=[group]).matches(sentence) for group in fact.keywords
            )
            if matched >= max(1, len(fact.keywords) - 1):
                return True
    return False


def _sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part]


def living_quarters(ville: Ville) -> dict[str, list[str]]:
    """Home sector address -> its arenas with spawning locations (where people sleep), in the map's order."""
    homes: dict[str, list[str]] = {}
    for sector in ville.sectors():
        for arena in ville.arenas(sector):
            address = f"{ville.world}:{sector}:{arena}"
            if ville.spawn_tiles(address):
                homes.setdefault(f"{ville.world}:{sector}", []).append(address)
    return homes


def start_tiles(ville: Ville, paths: PathFinder, arena: str) -> list[tuple[int, int]]:
    """An arena's tiles in the order people are put to bed there: spawn points, beds, then the walkable rest.

    Only tiles from which the spawn points can be reached: a walkable tile walled in by furniture is no bed.
    """
    spawns = ville.spawn_tiles(arena)
    beds = ville.tiles_of(f"{arena}:bed") if ville.has_address(f"{arena}:bed") else []
    rest = [tile for tile in ville.tiles_of(arena) if ville.is_walkable(tile)]
    steps = paths.distance_field(spawns)
    ordered = dict.fromkeys(spawns + beds + rest)
    return [(x, y) for x, y in ordered if ville.is_walkable((x, y)) and np.isfinite(steps[y, x])]


def derived_files(sizes: list[int], seed: int = 0) -> dict[str, str]:
    """Every file of the derived towns: path (relative to data/) -> text.

    One folder of personas and one whisper file serve every size (the biggest town's); each size gets its
    scenario, data/scenarios/the_ville_n<size>.json, listing the first `size` people.
    """
    source = load_scenario(SOURCE_SCENARIO)
    if min(sizes) <= len(source.agents):
        raise ValueError(f"a derived town needs more than the {len(source.agents)} originals (got {min(sizes)})")
    files, starts = _derive_people(source, max(sizes), seed)
    for size in sizes:
        files[f"scenarios/the_ville_n{size}.json"] = _scenario_text(source, size, seed, starts[:size])
    return files


def write_tiled_town(size: int, folder: Path, seed: int = 0) -> Path:
    """Write a town of `size` people on the map laid side by side in `folder`; its scenario file.

    Copy k of the 25 lives on copy k of the map (as many copies as it takes), in the originals' homes and on their
    start tiles: each neighbourhood is as crowded as the 25-agent Ville, so what a bigger town costs an agent-hour
    is the engine's own growth (benchmarks/bench_scale.py --layout tiled). The files are not committed: the
    scenario names its personas and whispers by their paths under `folder`.
    """
    source = load_scenario(SOURCE_SCENARIO)
    if size <= len(source.agents):
        raise ValueError(f"a derived town needs more than the {len(source.agents)} originals (got {size})")
    files, starts = _derive_people(source, size, seed, tiled=True)
    copies = -(-size // len(source.agents))
    scenario = json.loads(_scenario_text(source, size, seed, starts))
    scenario |= {
        "name": f"the_ville_tiled_n{size}",
        "description": (
            f"The tiled scale series: the 25 of {source.name} and {size - len(source.agents)} people derived from "
            f"them, copy k living on copy k of the map laid {copies} times side by side (seed {seed}; "
            "smallville/scenarios/derived_town.py)."
        ),
        "map_copies": copies,
        "personas": str(folder / PERSONA_DIR),
        "whispers": str(folder / WHISPER_FILE),
    }
    files[f"the_ville_tiled_n{size}.json"] = json.dumps(scenario, indent=2) + "\n"
    _write(files, folder)
    return folder / f"the_ville_tiled_n{size}.json"


def write_derived_town(sizes: list[int], seed: int = 0, data_dir: Path = DATA_DIR) -> list[Path]:
    """Write `derived_files` under the data directory; the paths written."""
    return _write(derived_files(sizes, seed), data_dir)


def _write(files: dict[str, str], root: Path) -> list[Path]:
    """Write each file (path relative to `root` -> text), making its folders; the paths written."""
    written = []
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


def _derive_people(source: Scenario, size: int, seed: int, tiled: bool = False) -> tuple[dict[str, str], list[dict]]:
    """The persona files and whisper file of `size` people, and their start tiles in the scenario's order.

    On one Ville (`tiled` False) each copy's households move to other homes; on a map laid side by side (`tiled`,
    environment/map_copies.py) copy k keeps the originals' homes and routines on its own copy of the map.
    """
    ville = load_ville(DATA_DIR / source.map)
    paths = PathFinder(ville)
    original_dir = source.personas_folder
    whispers = load_whispers(DATA_DIR / source.whispers)
    folders = {agent.name: original_dir / agent.name / "bootstrap_memory" for agent in source.agents}
    scratches = {name: json.loads((folder / "scratch.json").read_text()) for name, folder in folders.items()}
    genders = {name: gender_of(scratch.get(key, "") for key in TEXT_FIELDS) for name, scratch in scratches.items()}
    homes = living_quarters(ville)
    places = [*ville.sectors(), *(arena for sector in ville.sectors() for arena in ville.arenas(sector))]
    rng = random.Random(seed)
    files: dict[str, str] = {}
    taken = set(scratches)
    used = {tuple(agent.tile) for agent in source.agents}
    for name in scratches:
        for kind in ("scratch.json", "spatial_memory.json"):
            files[_persona_file(name, kind)] = (folders[name] / kind).read_text()
    starts = [agent.model_dump(mode="json") for agent in source.agents]
    rows = [(agent.name, ";".join(whispers[agent.name])) for agent in source.agents if agent.name in whispers]
    while len(starts) < size:
        copy = len(starts) // len(source.agents)
        names = draw_copy_names(genders, rng, taken)
        if tiled:
            sectors = {sector: copy_sector_name(sector, copy) for sector in ville.sectors()}
            rename = renamer(names, places, sectors)
        else:
            rename = renamer(names, places)
            moves = _move_households(scratches, homes, rng)
        for original in source.agents[: size - len(starts)]:
            scratch, new_name = scratches[original.name], names[original.name]
            known = json.loads((folders[original.name] / "spatial_memory.json").read_text())
            if tiled:
                home = _in_copy(scratch["living_area"], sectors)
                moved = {sectors[name]: rooms for name, rooms in known[ville.world].items()}
                spatial = json.dumps({ville.world: moved}, indent=2) + "\n"
                tile = [original.tile[0] + copy_offset(ville.width, copy), original.tile[1]]
            else:
                home = moves[original.name]
                spatial = _spatial_memory(known, scratch, home, ville)
                tile = list(_free_tile(start_tiles(ville, paths, home), used))
            derived = {"name": new_name, "first_name": new_name.split()[0], "last_name": new_name.split()[-1]}
            derived |= {key: scratch[key] for key in KEPT_FIELDS if key in scratch}
            for key in TEXT_FIELDS:
                text = scratch.get(key, "")
                derived[key] = rename(" ".join(s for s in _sentences(text) if not drops_fact(s, text, source.facts)))
            derived["living_area"] = home
            files[_persona_file(new_name, "scratch.json")] = json.dumps(derived, indent=2) + "\n"
            files[_persona_file(new_name, "spatial_memory.json")] = spatial
            context = " ".join((original.name, *whispers.get(original.name, ())))
            kept = [s for s in whispers.get(original.name, ()) if not drops_fact(s, context, source.facts)]
            if kept:
                rows.append((new_name, ";".join(rename(statement) for statement in kept)))
            starts.append({"name": new_name, "tile": tile})
    files[WHISPER_FILE] = whisper_text(rows)
    return files, starts


def _in_copy(address: str, sectors: dict[str, str]) -> str:
    """An address of the original map in a copy of it: its sector renamed (see environment/map_copies.py)."""
    world, sector, *rest = address.split(":")
    return ":".join((world, sectors[sector], *rest))


def _free_tile(tiles: list[tuple[int, int]], used: set[tuple[int, int]]) -> tuple[int, int]:
    """The first tile nobody starts on yet (then marked taken); in a full room, one of its tiles in turn."""
    tile = next((tile for tile in tiles if tile not in used), None)
    if tile is None:
        tile = tiles[len(used) % len(tiles)]
    used.add(tile)
    return tile


def _move_households(scratches: dict[str, dict], homes: dict[str, list[str]], rng: random.Random) -> dict[str, str]:
    """Each original's home in this copy: its household's sector goes to another (a seeded derangement).

    Housemates stay together; the distinct rooms of a household map in turn onto the new home's rooms (from a
    seeded first room), so five housemates moving into a two-bedroom house share the rooms as people do.
    """
    households: dict[str, list[str]] = {}
    for name, scratch in scratches.items():
        households.setdefault(_sector(scratch["living_area"]), []).append(name)
    sectors = sorted(homes)
    while True:
        order = rng.sample(sectors, len(sectors))
        if all(old != new for old, new in zip(sectors, order, strict=True)):
            break
    destination = dict(zip(sectors, order, strict=True))
    moves = {}
    for sector, members in households.items():
        rooms = list(dict.fromkeys(_arena(scratches[name]["living_area"]) for name in members))
        target = homes[destination[sector]]
        offset = rng.randrange(len(target))
        for name in members:
            moves[name] = target[(rooms.index(_arena(scratches[name]["living_area"])) + offset) % len(target)]
    return moves


def _spatial_memory(known: dict, scratch: dict, home: str, ville: Ville) -> str:
    """The original's known world without its old home, with the new home: its own room and the shared rooms."""
    world, old_sector = ville.world, _sector(scratch["living_area"]).split(":")[1]
    _, sector, room = home.split(":")
    shared = {f"{world}:{sector}:{arena}" for arena in ville.arenas(sector)} - set(
        living_quarters(ville).get(f"{world}:{sector}", [])
    )
    arenas = {
        arena: ville.objects(sector, arena)
        for arena in ville.arenas(sector)
        if arena == room or f"{world}:{sector}:{arena}" in shared
    }
    places = {sector: arenas}
    places |= {name: rooms for name, rooms in known.get(world, {}).items() if name not in (old_sector, sector)}
    return json.dumps({world: places}, indent=2) + "\n"


def _scenario_text(source: Scenario, size: int, seed: int, starts: list[dict]) -> str:
    # One map (the field's default); the source's interventions, if any, name its own people only.
    scenario = source.model_dump(mode="json", exclude={"map_copies", "interventions"})
    scenario |= {
        "name": f"the_ville_n{size}",
        "description": (
            f"The scale series: the 25 of {source.name} and {size - len(source.agents)} people derived from them "
            f"(new names and homes, seed {seed}; smallville/scenarios/derived_town.py, scripts/generate_scenario.py)."
        ),
        "personas": PERSONA_DIR,
        "whispers": WHISPER_FILE,
        "agents": [],
    }
    text = json.dumps(scenario, indent=2)
    rows = ",\n".join(
        f'    {{"name": {json.dumps(start["name"])}, "tile": {json.dumps(start["tile"])}}}' for start in starts
    )
    return text.replace('"agents": []', f'"agents": [\n{rows}\n  ]') + "\n"


def whisper_text(rows: list[tuple[str, str]]) -> str:
    """The whispers file (the original's agent_history_init CSV: Name, Whisper) for these rows."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Name", "Whisper"])
    writer.writerows(rows)
    return buffer.getvalue()


def _persona_file(name: str, kind: str) -> str:
    return f"{PERSONA_DIR}/{name}/bootstrap_memory/{kind}"


def _sector(living_area: str) -> str:
    return ":".join(living_area.split(":")[:2])


def _arena(living_area: str) -> str:
    return ":".join(living_area.split(":")[:3])
