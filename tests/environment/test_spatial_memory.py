import json

import pytest

from environment import SpatialMemory

from .conftest import PERSONAS, all_personas, persona_files


def _memory(name: str) -> SpatialMemory:
    return SpatialMemory.from_file(PERSONAS / name / "bootstrap_memory" / "spatial_memory.json")


@pytest.mark.parametrize(
    ("place", "agent", "allowed"),
    [
        ("Ryan Park's apartment", "Ryan Park", True),
        ("Ryan Park's apartment", "Eddy Lin", False),
        ("Moreno family's house", "Tom Moreno", True),
        ("Moreno family's house", "Eddy Lin", False),
        ("Tom and Jane Moreno's bedroom", "Jane Moreno", True),
        ("Klaus Mueller's room", "Maria Lopez", False),
        ("Tamara Taylor and Carmen Ortiz's house", "Carmen Ortiz", True),
        ("Carmen Ortiz's room", "Tamara Taylor", False),
        ("artist's co-living space", "Eddy Lin", True),
        ("man's bathroom", "Maria Lopez", True),
        ("Hobbs Cafe", "Eddy Lin", True),
        ("Linda Smith's house", "Eddy Lin", False),
    ],
    ids=[
        "own-apartment",
        "other-apartment",
        "own-family-house",
        "other-family-house",
        "parents-bedroom-of-a-Moreno",
        "other-dorm-room",
        "shared-house-of-two-owners",
        "housemates-room",
        "lower-case-owner-is-shared",
        "mans-bathroom-is-shared",
        "public-place",
        "last-name-must-be-a-whole-word",
    ],
)
def test_who_may_choose_a_place(place, agent, allowed):
    memory = SpatialMemory({"the Ville": {place: {"main room": ["bed"]}}})
    assert (place in memory.choices(agent)) is allowed


def test_choices_leave_out_other_peoples_homes_but_keep_ones_own():
    memory = _memory("Eddy Lin")
    memory.add("the Ville:Ryan Park's apartment:main room:bed")
    choices = memory.choices("Eddy Lin")
    # "Lin family's house" and "Mei and John Lin's bedroom" are a Lin's: his to choose.
    assert "Mei and John Lin's bedroom" in choices["Lin family's house"]
    assert "Ryan Park's apartment" not in choices
    assert memory.knows("the Ville:Ryan Park's apartment:main room:bed")
    assert "Ryan Park's apartment" in memory.choices("Ryan Park")


def test_private_arenas_inside_a_shared_sector_are_left_out():
    memory = SpatialMemory(
        {"the Ville": {"Dorm for Oak Hill College": {"Klaus Mueller's room": ["bed"], "kitchen": ["toaster"]}}}
    )
    assert memory.choices("Maria Lopez") == {"Dorm for Oak Hill College": {"kitchen": ["toaster"]}}
    assert memory.choices("Klaus Mueller")["Dorm for Oak Hill College"]["Klaus Mueller's room"] == ["bed"]
    only_private = SpatialMemory({"the Ville": {"Dorm for Oak Hill College": {"Klaus Mueller's room": ["bed"]}}})
    assert only_private.choices("Maria Lopez") == {}


def test_ones_own_home_is_ones_own_whatever_its_name():
    """Someone who moved into "Arthur Burton's apartment" (a copy of the scale series) may go home; others may not."""
    memory = SpatialMemory(
        {"the Ville": {"Arthur Burton's apartment": {"main room": ["bed"]}, "Lin family's house": {
            "Mei and John Lin's bedroom": ["bed"], "Eddy Lin's bedroom": ["desk"], "kitchen": ["stove"]}}}
    )  # fmt: skip
    home = "the Ville:Arthur Burton's apartment:main room"
    assert memory.choices("Bruno Yamada", home) == {"Arthur Burton's apartment": {"main room": ["bed"]}}
    assert memory.choices("Bruno Yamada") == {}
    # In a home of private rooms, one's own room and the shared ones: not the other rooms.
    lodger = memory.choices("Rafael Lindberg", "the Ville:Lin family's house:Eddy Lin's bedroom")
    assert lodger == {"Lin family's house": {"Eddy Lin's bedroom": ["desk"], "kitchen": ["stove"]}}


def test_every_persona_may_choose_its_own_home():
    for name in all_personas():
        scratch, _ = persona_files(name)
        _, sector, arena = scratch["living_area"].split(":")
        memory = _memory(name)
        memory.add(scratch["living_area"])
        assert arena in memory.choices(name).get(sector, {}), (name, scratch["living_area"])


@pytest.mark.parametrize(
    ("address", "new", "known"),
    [
        ("the Ville", False, ["the Ville"]),
        ("the Ville:Johnson Park", True, ["the Ville:Johnson Park"]),
        ("the Ville:Hobbs Cafe:cafe", False, ["the Ville:Hobbs Cafe:cafe"]),
        ("the Ville:Hobbs Cafe:cafe:harp", True, ["the Ville:Hobbs Cafe:cafe:harp", "the Ville:Hobbs Cafe:cafe:piano"]),
        ("the Town:Main Street:square:fountain", True, ["the Town", "the Town:Main Street:square"]),
    ],
    ids=["world", "new-sector", "known-arena", "new-object", "new-world-and-parents"],
)
def test_add_grows_the_tree(address, new, known):
    memory = SpatialMemory({"the Ville": {"Hobbs Cafe": {"cafe": ["piano"]}}})
    assert not memory.knows(address) or not new
    assert memory.add(address) is new
    assert memory.add(address) is False
    assert all(memory.knows(place) for place in known)
    assert memory.tree["the Ville"]["Hobbs Cafe"]["cafe"][0] == "piano"


def test_add_of_the_streets_adds_nothing():
    memory = SpatialMemory({"the Ville": {}})
    assert memory.add("") is False
    assert memory.tree == {"the Ville": {}}


@pytest.mark.parametrize(
    "address", ["the Ville:", "the Ville::cafe", "the Ville:a:b:c:d"], ids=["empty-sector", "empty-part", "too-deep"]
)
def test_add_refuses_a_malformed_address(address):
    with pytest.raises(ValueError, match="is not an address"):
        SpatialMemory().add(address)


def test_knows_does_not_guess():
    memory = SpatialMemory({"the Ville": {"Hobbs Cafe": {"cafe": ["piano"]}}})
    assert memory.knows("the Ville:Hobbs Cafe:cafe:piano")
    assert not memory.knows("the Ville:Hobbs Cafe:cafe:harp")
    assert not memory.knows("the Ville:Hobbs Cafe:kitchen")
    assert not memory.knows("the Ville:Hobbs Cafe:cafe:piano:keys")


def test_state_round_trip_is_exact_and_detached():
    memory = _memory("Isabella Rodriguez")
    saved = memory.get_state()
    as_json = json.loads(json.dumps(saved))
    assert memory.add("the Ville:Hobbs Cafe:cafe:harp") is True
    assert saved == as_json  # growing the memory does not change a saved state
    restored = SpatialMemory.from_state(memory.get_state())
    assert restored.tree == memory.tree
    assert restored.choices("Isabella Rodriguez") == memory.choices("Isabella Rodriguez")
    memory.set_state(as_json)
    assert memory.get_state() == as_json
    assert not memory.knows("the Ville:Hobbs Cafe:cafe:harp")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"the Ville": ["Hobbs Cafe"]}', "'the Ville' should map sectors to arenas"),
        ('{"the Ville": {"Hobbs Cafe": {"cafe": "piano"}}}', "the Ville:Hobbs Cafe:cafe should hold a list"),
    ],
    ids=["not-json", "sectors-as-a-list", "objects-as-a-string"],
)
def test_a_malformed_file_names_the_file_and_the_entry(tmp_path, text, message):
    path = tmp_path / "spatial_memory.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as caught:
        SpatialMemory.from_file(path)
    assert str(path) in str(caught.value)
