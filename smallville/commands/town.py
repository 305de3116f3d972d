"""`run.py town import MAP.tmj --out DIR` and `run.py town new --people N --out DIR`: a town folder of one's own.

Either writes a folder the simulation reads like the Ville (matrix/, personas/, whispers.csv, scenario.json):
`run.py simulate --scenario DIR` runs it, and so do the page and every other command. `import` reads a map drawn
in Tiled with the original's layers and peoples it from a personas file (--personas) or with generated people;
`new` lays out a town for N people. Only argparse loads with this module; the rest when the command runs.
"""

import argparse

from smallville.scenarios.generated_names import NEIGHBOURHOOD


def add_parser(commands) -> None:
    """The `town` command and its two actions."""
    town = commands.add_parser(
        "town",
        help="make a town of one's own: import a Tiled map, or generate one",
        description="Write a town folder (map, people, scenario) that `simulate --scenario DIR` runs.",
    )
    actions = town.add_subparsers(dest="town_command", required=True, metavar="ACTION")
    imported = actions.add_parser(
        "import",
        help="a map drawn in Tiled (JSON, the original's five layers) and its people",
        description="Read a Tiled JSON map with the layers Collisions, Sector Blocks, Arena Blocks, Object "
        "Interaction Blocks and Spawning Blocks, the block names in special_blocks CSVs beside it (docs/towns.md).",
    )
    imported.add_argument("map", help="the Tiled map (.tmj)")
    imported.add_argument("--blocks", help="folder of the *_blocks.csv tables (default: special_blocks/ beside it)")
    people = imported.add_mutually_exclusive_group()
    people.add_argument("--personas", help="a personas file (TOML or CSV; docs/towns.md) naming the map's places")
    people.add_argument("--people", type=int, help="generate this many people (default: one a sleeping room)")
    imported.add_argument("--seed", type=int, default=0, help="seed of the generated people (default: 0)")
    _add_common(imported)
    imported.set_defaults(handler="smallville.commands.town:run_import")
    new = actions.add_parser(
        "new",
        help="lay out a town for N people, with generated people",
        description="Lay out a walkable town (homes, cafes, shops, a college, parks, bars) and its people; the same "
        "seed gives the same town. Writes map.tmj and people.toml too, to edit and import again.",
    )
    new.add_argument("--people", type=int, required=True, help="how many people live there")
    new.add_argument("--seed", type=int, default=0, help="the seed (default: 0)")
    new.add_argument(
        "--neighbourhood",
        type=int,
        default=NEIGHBOURHOOD,
        help=f"about how many people a neighbourhood holds, each a block with its own public places where its "
        f"people work and go out (default: {NEIGHBOURHOOD}, the paper's town)",
    )
    for kind in ("cafes", "shops", "colleges", "parks", "bars"):
        new.add_argument(f"--{kind}", type=int, help=f"how many {kind} in the town (default: 1 a neighbourhood)")
    new.add_argument("--world", default="the town", help='the world\'s name in addresses (default: "the town")')
    _add_common(new)
    new.set_defaults(handler="smallville.commands.town:run_new")


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", required=True, help="the town folder to write: new or empty (import: or the map's own folder)"
    )
    parser.add_argument("--name", default="", help="the scenario's name (default: the folder's)")


def run_import(args: argparse.Namespace) -> int:
    """Import the map, people it, and say how to run it."""
    import random  # noqa: PLC0415 - the command's own loads, see the module's docstring
    import shutil  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from environment import MapError, Ville, read_tiled, write_matrix  # noqa: PLC0415
    from smallville.cli import UserError  # noqa: PLC0415
    from smallville.scenarios.generated_people import (  # noqa: PLC0415
        draw_households,
        fill_homes,
        people_for,
        personas_toml,
    )
    from smallville.scenarios.personas_file import PersonasFileError, read_personas  # noqa: PLC0415
    from smallville.scenarios.town_folder import write_town  # noqa: PLC0415

    in_place = Path(args.out).resolve() == Path(args.map).resolve().parent
    folder = Path(args.out) if in_place else _empty_folder(args.out)
    try:
        raw = read_tiled(Path(args.map), Path(args.blocks) if args.blocks else None)
        personas = read_personas(Path(args.personas)) if args.personas else None
    except (MapError, PersonasFileError) as error:
        raise UserError(str(error)) from None
    ville = Ville(raw)
    write_matrix(raw, folder)
    if in_place:  # a town folder drawn and imported where it lies: its people written anew
        shutil.rmtree(folder / "personas", ignore_errors=True)
    else:  # the drawing and its tables travel with the town
        _copy_drawing(Path(args.map), folder)
        tables = Path(args.blocks) if args.blocks else _tables_beside(Path(args.map))
        (folder / "special_blocks").mkdir()
        for table in tables.glob("*_blocks.csv"):
            shutil.copy(table, folder / "special_blocks" / table.name)
    try:
        if personas is None:
            if args.people is not None and args.people < 1:
                raise UserError(f"--people: {args.people}; give at least 1")
            count = args.people or max(1, sum(_sleeping_rooms(ville, sector) for sector in ville.sectors()))
            households = draw_households(count, random.Random(args.seed))
            fill_homes(ville, households)
            personas = people_for(ville, households, args.seed, args.name or folder.name)
            (folder / "people.toml").write_text(personas_toml(personas))
            source = folder / "people.toml"
        else:
            source = Path(args.personas)
        scenario = write_town(personas, ville, folder, source, args.name)
    except (PersonasFileError, ValueError) as error:
        raise UserError(str(error)) from None
    _say_done(scenario, len(personas.people), ville)
    return 0


def run_new(args: argparse.Namespace) -> int:
    """Generate the town and say how to run it."""
    from environment import load_ville  # noqa: PLC0415
    from smallville.cli import UserError  # noqa: PLC0415
    from smallville.scenarios.generated_town import TownPlan, new_town  # noqa: PLC0415

    folder = _empty_folder(args.out)
    counts = {kind: getattr(args, kind) for kind in ("cafes", "shops", "colleges", "parks", "bars")}
    for kind, number in counts.items():
        if number is not None and number < 0:
            raise UserError(f"--{kind}: {number}; give 0 or more")
    if args.people < 1:
        raise UserError(f"--people: {args.people}; give at least 1")
    if args.neighbourhood < 1:
        raise UserError(f"--neighbourhood: {args.neighbourhood}; give at least 1 person")
    plan = TownPlan(people=args.people, seed=args.seed, world=args.world, neighbourhood=args.neighbourhood, **counts)
    scenario = new_town(plan, folder, args.name)
    _say_done(scenario, args.people, load_ville(folder))
    return 0


def _copy_drawing(map_file, folder) -> None:
    """The map file as map.tmj, with the tileset files and pictures it names by relative paths beside it."""
    import json  # noqa: PLC0415
    import shutil  # noqa: PLC0415

    shutil.copy(map_file, folder / "map.tmj")
    tilesets = json.loads(map_file.read_text(encoding="utf-8")).get("tilesets", [])
    for tileset in tilesets if isinstance(tilesets, list) else []:
        for key in ("image", "source"):
            name = tileset.get(key) if isinstance(tileset, dict) else None
            if isinstance(name, str) and not name.startswith(("/", "..")) and (map_file.parent / name).is_file():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(map_file.parent / name, folder / name)


def _tables_beside(map_file):
    beside = map_file.parent / "special_blocks"
    return beside if beside.is_dir() else map_file.parent


def _sleeping_rooms(ville, sector: str) -> int:
    return sum(bool(ville.spawn_tiles(f"{ville.world}:{sector}:{arena}")) for arena in ville.arenas(sector))


def _empty_folder(out: str):
    from pathlib import Path  # noqa: PLC0415

    from smallville.cli import UserError  # noqa: PLC0415

    folder = Path(out)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UserError(f"--out: {folder} exists and is not an empty folder; give a new folder")
    return folder  # made by the first file written, once the inputs have been read


def _say_done(scenario, people: int, ville) -> None:
    print(
        f"town written to {scenario.parent}: {ville.width} x {ville.height} tiles, {len(ville.sectors())} places, "
        f"{people} people\nrun it: run.py simulate --scenario {scenario.parent} --days 1"
    )
