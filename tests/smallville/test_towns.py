"""Towns of one's own: personas files (each mistake one line), `town new` (walkable, deterministic), `town import`
with a short simulation, and the shipped second town."""

import json
import re
import statistics
from datetime import datetime
from pathlib import Path

import pytest

from environment import PathFinder, load_ville
from smallville.cli import main
from smallville.scenarios.generated_town import TownPlan, new_town
from smallville.scenarios.personas_file import PersonasFileError, read_personas
from smallville.scenarios.scenario import load_scenario
from smallville.scenarios.town_folder import write_town

HARBOR = Path(__file__).resolve().parents[2] / "data" / "towns" / "gull_harbor"
PERSON = """
[[people]]
name = "Ann Ames"
age = 40
traits = "kind"
occupation = "baker"
lifestyle = "Ann Ames goes to bed around 10pm, awakes up around 6am."
home = "Vance family's house"
workplace = "Saltwater Bakery"
"""
SECOND = PERSON.replace("Ann Ames", "Bo Berg")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("town") / "thirty"
    new_town(TownPlan(people=30, seed=5), folder)
    return folder


def test_a_generated_towns_every_person_can_reach_home_work_and_a_public_place(generated):
    ville = load_ville(generated)
    paths = PathFinder(ville)
    scenario = load_scenario(generated)
    assert len(scenario.agents) == 30
    homes = {sector for sector in ville.sectors() if ville.spawn_tiles(f"{ville.world}:{sector}")}
    workplaces = {person.name: person.workplace for person in read_personas(generated / "people.toml").people}
    assert sum(bool(place) for place in workplaces.values()) >= 10  # most work somewhere in town
    for start in scenario.agents:
        folder = generated / "personas" / start.name / "bootstrap_memory"
        scratch = json.loads((folder / "scratch.json").read_text())
        known = json.loads((folder / "spatial_memory.json").read_text())[ville.world]
        public = [sector for sector in known if sector not in homes]
        work = workplaces[start.name]
        assert not work or work in known
        goals = [scratch["living_area"], f"{ville.world}:{public[0]}"] + ([f"{ville.world}:{work}"] if work else [])
        for goal in goals:
            assert paths.path_to_nearest(tuple(start.tile), ville.tiles_of(goal)) is not None, (start.name, goal)


def test_a_generated_town_is_the_same_for_a_seed_and_differs_for_another(generated, tmp_path):
    new_town(TownPlan(people=30, seed=5), tmp_path / "again")
    new_town(TownPlan(people=30, seed=6), tmp_path / "other")
    for name in ("people.toml", "scenario.json", "matrix/maze/arena_maze.csv"):
        assert (generated / name).read_text().replace("thirty", "again") == (tmp_path / "again" / name).read_text()
    assert (generated / "people.toml").read_text() != (tmp_path / "other" / "people.toml").read_text()


def test_generated_people_have_households_jobs_that_fit_and_acquaintances(generated):
    personas = read_personas(generated / "people.toml")
    by_job = {person.occupation for person in personas.people}
    assert {"cafe owner", "shopkeeper", "bartender", "professor"} <= by_job
    assert all(person.knows for person in personas.people if person.home.endswith("room"))
    owner = next(person for person in personas.people if person.occupation == "cafe owner")
    assert owner.workplace.endswith("Cafe") and owner.workplace in owner.daily_requirements


def test_options_set_the_kinds_and_numbers_of_places(tmp_path):
    new_town(TownPlan(people=6, seed=1, cafes=2, shops=0, colleges=0, parks=1, bars=0), tmp_path / "t")
    sectors = load_ville(tmp_path / "t").sectors()
    assert sum(sector.endswith("Cafe") for sector in sectors) == 2
    assert not [sector for sector in sectors if sector.endswith(("College", "Store", "Tavern"))]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (PERSON.replace('age = 40\n', ""), "person 1 (Ann Ames): field 'age': is missing"),
        (PERSON.replace("age = 40", "age = 400"), "field 'age': Input should be less than or equal to 130"),
        (PERSON + 'hobby = "sailing"\n', "field 'hobby': is not a field of a person"),
        (PERSON + PERSON, "person 2 (Ann Ames): field 'name': another person has this name"),
        (PERSON + '[people.knows]\n"Cy Cole" = "a friend"\n', "field 'knows': 'Cy Cole' is nobody in the file"),
        (PERSON.replace('name = "Ann Ames"', 'name = "Ann"'), "field 'name': a full name of two words or more"),
        (PERSON.replace("age = 40", "age = "), "not valid TOML"),
        (PERSON.replace('"Saltwater Bakery"', '"Moon Base"'), "field 'workplace': 'Moon Base' is not a sector"),
        (PERSON.replace("Vance family's house", "Nowhere:attic"), "field 'home': 'Nowhere:attic' is not a sector"),
        (PERSON + '[[facts]]\nid = "x"\ndescription = "d"\nsources = ["Cy Cole"]\nkeywords = [["x"]]\n',
         "fact 'x': field 'sources': 'Cy Cole' is nobody here"),
    ],
    ids=["missing field", "age out of range", "unknown field", "same name twice", "knows nobody", "one-word name",
         "TOML syntax", "workplace not on the map", "home not on the map", "fact from nobody"],
)  # fmt: skip
def test_each_personas_mistake_is_one_line(tmp_path, text, says):
    path = tmp_path / "people.toml"
    path.write_text(text + SECOND)
    with pytest.raises(PersonasFileError) as raised:
        write_town(read_personas(path), load_ville(HARBOR), tmp_path / "out", path)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(str(path)) and says in message, message


def test_a_csv_personas_file_reads_like_toml(tmp_path):
    path = tmp_path / "people.csv"
    path.write_text(
        "name,age,traits,occupation,lifestyle,home,workplace,knows,memories\n"
        'Ann Ames,40,kind,baker,"goes to bed around 10pm",Vance family\'s house,Saltwater Bakery,'
        '"Bo Berg: my neighbour",I like rye bread; The sea is cold\n'
        "Bo Berg,50,calm,keeper,goes to bed around 9pm,Marta Lind's cottage,Lighthouse,,\n"
    )
    scenario = load_scenario(write_town(read_personas(path), load_ville(HARBOR), tmp_path / "out", path))
    assert scenario.agent_names == ["Ann Ames", "Bo Berg"]
    whispers = (tmp_path / "out" / "whispers.csv").read_text()
    assert "Bo Berg is my neighbour;I like rye bread;The sea is cold" in whispers
    spatial = json.loads((tmp_path / "out/personas/Bo Berg/bootstrap_memory/spatial_memory.json").read_text())
    assert {"Marta Lind's cottage", "Lighthouse"} <= set(spatial["Gull Harbor"])


def test_town_import_of_a_broken_map_prints_one_line_and_exits_1(tmp_path, capsys):
    document = json.loads((HARBOR / "map.tmj").read_text())
    document["layers"] = [layer for layer in document["layers"] if layer["name"] != "Spawning Blocks"]
    (tmp_path / "map.tmj").write_text(json.dumps(document))
    code = main(["town", "import", str(tmp_path / "map.tmj"), "--blocks", str(HARBOR / "special_blocks"),
                 "--out", str(tmp_path / "out")])  # fmt: skip
    error = capsys.readouterr().err.strip()
    assert code == 1 and "\n" not in error and "layer 'Spawning Blocks': is missing" in error


@pytest.mark.slow  # about 5 s: a town imported and simulated through the morning
def test_an_imported_map_with_generated_people_simulates(tmp_path, capsys):
    from smallville.model import SmallvilleModel  # mesa loads only for the slow tests

    assert main(["town", "import", str(HARBOR / "map.tmj"), "--people", "5", "--out", str(tmp_path / "t")]) == 0
    assert "simulate --scenario" in capsys.readouterr().out
    model = SmallvilleModel(scenario_name=str(tmp_path / "t"), embedder="hashing", rng=0)
    model.run_until(datetime(2023, 2, 13, 9, 0))
    actions = [entry for entry in model.event_log if entry["kind"] == "action"]
    assert {entry["agent"] for entry in actions} == set(model.by_name)
    assert all(entry["address"].startswith("Gull Harbor") for entry in actions if entry["address"])
    assert any(agent.tile != tuple(start.tile) for agent, start in zip(model.people, model.setting.agents, strict=True))


@pytest.mark.slow  # about 6 s: the shipped second town's morning
def test_the_shipped_second_town_runs_and_its_people_go_to_work():
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(scenario_name="gull_harbor", embedder="hashing", rng=0)
    assert 8 <= len(model.people) <= 15 and model.setting.facts[0].id == "lighthouse_supper"
    model.run_until(datetime(2023, 2, 13, 8, 0))
    assert model.ville.address_at(model.by_name["Nora Vance"].tile).startswith("Gull Harbor:Saltwater Bakery")
    assert model.ville.address_at(model.by_name["Ken Sato"].tile).startswith("Gull Harbor:Harbor Fish Market")


def test_the_shipped_second_towns_two_scenario_files_agree():
    by_name, in_folder = load_scenario("gull_harbor"), load_scenario(HARBOR)
    assert by_name.agents == in_folder.agents and by_name.facts == in_folder.facts
    assert Path(in_folder.map).resolve() == HARBOR and (HARBOR / "personas").is_dir()


def _walks_to_work(folder: Path) -> list[int]:
    """Each worker's walk, in tiles, from where they start to the nearest tile of their workplace."""
    ville, scenario = load_ville(folder), load_scenario(folder)
    paths = PathFinder(ville)
    workplaces = {person.name: person.workplace for person in read_personas(folder / "people.toml").people}
    return [
        len(paths.path_to_nearest(tuple(start.tile), ville.tiles_of(f"{ville.world}:{workplaces[start.name]}")))
        for start in scenario.agents
        if workplaces[start.name]
    ]


def test_a_bigger_town_grows_by_neighbourhoods_whose_people_walk_about_as_far_as_in_a_small_one(tmp_path):
    new_town(TownPlan(people=50, seed=0), tmp_path / "small")
    new_town(TownPlan(people=200, seed=0), tmp_path / "big")
    sectors = load_ville(tmp_path / "big").sectors()
    for kind in ("Cafe", "General Store", "College", "Park", "Tavern"):  # one of each kind in each of the eight
        assert sum(bool(re.search(rf" {kind}( \d+)?$", sector)) for sector in sectors) == 8, kind
    small, big = _walks_to_work(tmp_path / "small"), _walks_to_work(tmp_path / "big")
    assert len(big) > 3 * len(small)
    # In one block of the same 200 people and places the median walk is 87 tiles against the small town's 40.
    assert statistics.median(big) <= 1.3 * statistics.median(small), (statistics.median(big), statistics.median(small))
