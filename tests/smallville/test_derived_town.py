"""The scale series' towns: the committed files are what the generator writes, and each town builds and steps."""

import json

import pytest

from environment import SpatialMemory, copy_offset
from smallville.model import SmallvilleModel
from smallville.scenarios.derived_names import renamer
from smallville.scenarios.derived_town import derived_files, drops_fact, write_tiled_town
from smallville.scenarios.scenario import DATA_DIR, load_scenario

ORIGINALS = load_scenario("the_ville_n25")
NAMES = {"Hailey Johnson": "Farah Hoffmann", "Abigail Chen": "Yara Costa", "Mei Lin": "Paloma Lindberg"}
PLACES = ["Johnson Park", "Lin family's house"]


@pytest.mark.slow  # generates every derived town again
def test_committed_files_are_the_generators():
    files = derived_files([100, 250], seed=0)
    assert {"scenarios/the_ville_n100.json", "scenarios/the_ville_n250.json"} <= set(files)
    stale = [path for path, text in files.items() if (DATA_DIR / path).read_text() != text]
    assert not stale, f"run scripts/generate_scenario.py: {stale[:3]} differ"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("You find Haily Johnson pushy", "You find Farah Hoffmann pushy"),
        ("Abigail Chan is your housemate", "Yara Costa is your housemate"),
        ("Hailey walks to Johnson Park", "Farah walks to Johnson Park"),
        ("the Lin family, Mei and the son", "the Lindberg family, Paloma and the son"),
        ("When Chen sleeps at the Lin family's house", "When Costa sleeps at the Lin family's house"),
    ],
    ids=["misspelled-first", "misspelled-last", "place-kept", "lone-names", "no-fuzzy-lone-word"],
)
def test_renamer(text, expected):
    assert renamer(NAMES, PLACES)(text) == expected


@pytest.mark.parametrize(
    ("sentence", "context", "dropped"),
    [
        ("Everyone should join the party.", "A Valentine's party. Everyone should join the party.", True),
        ("Sam Moore lives with his wife.", "Sam Moore lives with his wife. Sam is running for mayor.", False),
        ("You are running for mayor", "Sam Moore You are running for mayor", True),
        ("You like to talk about local elections", "Adam Smith You like to talk about local elections", False),
        ("She is gathering party material.", "She is gathering party material.", False),
    ],
    ids=["carries-party", "names-only", "own-candidacy", "no-fact-stated", "party-without-the-fact"],
)  # fmt: skip
def test_drops_fact(sentence, context, dropped):
    assert drops_fact(sentence, context, ORIGINALS.facts) is dropped


def test_a_copy_builds_and_steps_without_the_originals():
    """The last copy of the 25 alone: its people load, find their homes, step, and know each other, not the news."""
    copy = load_scenario("the_ville_n250").agent_names[-25:]
    model = SmallvilleModel(scenario_name="the_ville_n250", agents=copy, embedder="hashing")
    try:
        _check_town(model, 25)
        assert not set(copy) & set(ORIGINALS.agent_names)
        assert model.social.graph.number_of_edges() > 25  # the seeded memories name people of the same copy
    finally:
        model.close()


def test_every_copy_may_go_home():
    """A copy living in "Arthur Burton's apartment" finds its home among the places it may choose."""
    town = load_scenario("the_ville_n250")
    for name in town.agent_names:
        folder = DATA_DIR / town.personas / name / "bootstrap_memory"
        home = json.loads((folder / "scratch.json").read_text())["living_area"]
        _, sector, arena = home.split(":")
        memory = SpatialMemory.from_file(folder / "spatial_memory.json")
        memory.add(home)  # where everyone wakes up (Eddy Lin's file lacks his own room; he sees it at once)
        choices = memory.choices(name, home)
        assert arena in choices.get(sector, {}), (name, home)


@pytest.mark.slow  # builds a town of 60 on three map copies
def test_a_tiled_town_puts_each_copy_on_its_own_map(tmp_path):
    """Copy k lives on copy k of the map, at home, renamed to match: "Hobbs Cafe 2" in its texts, not Hobbs Cafe."""
    scenario = write_tiled_town(60, tmp_path)
    assert json.loads(scenario.read_text())["map_copies"] == 3
    model = SmallvilleModel(scenario_name=str(scenario), embedder="hashing")
    try:
        width = copy_offset(140, 1)
        for index, agent in enumerate(model.people):
            assert agent.tile[0] // width == index // 25, agent.name
            assert model.paths.distance(agent.tile, (72 + (index // 25) * width, 14)) is not None  # Isabella's bed
        arthur_2 = model.people[25 + ORIGINALS.agent_names.index("Arthur Burton")]  # the bar owner of copy 1
        assert arthur_2.identity.living_area == "the Ville:Arthur Burton's apartment 2:main room"
        folder = tmp_path / "the_ville/base_the_ville_derived/personas" / arthur_2.name / "bootstrap_memory"
        assert "The Rose and Crown Pub 2" in json.loads((folder / "scratch.json").read_text())["daily_plan_req"]
        _check_town(model, 60, tiled=True)
    finally:
        model.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", [100, 250])
def test_town_builds_and_steps(size):
    model = SmallvilleModel(scenario_name=f"the_ville_n{size}", embedder="hashing")
    try:
        _check_town(model, size)
        assert model.social.graph.number_of_edges() > 10 * len(ORIGINALS.agents)  # the copies know their people
    finally:
        model.close()


def _check_town(model: SmallvilleModel, size: int, tiled: bool = False) -> None:
    assert len(model.people) == size
    for agent in model.people:  # everyone starts in their own home, on a tile that reaches the town
        assert model.ville.arena_address_at(agent.tile) == agent.identity.living_area
        if not tiled:
            assert model.paths.distance(agent.tile, (72, 14)) is not None  # Isabella's bed, across the map
    for _ in range(3):
        model.step()
    assert model.step_count == 3
    # The news keeps its sources: nobody derived knows a tracked fact at the start.
    for fact in ORIGINALS.facts:
        assert set(model.social.awareness[fact.id]) <= set(ORIGINALS.agent_names)
    assert len(model.social.graph) == size
