import pytest

from environment import Event, SpatialMemory, WorldState, describe_choices, describe_place, describe_surroundings

from .conftest import PERSONAS

PIANO = "the Ville:Hobbs Cafe:cafe:piano"
KLAUS = Event("Klaus Mueller", "is", "piano", "playing the piano")


@pytest.fixture
def state(ville):
    return WorldState(ville)


def test_objects_start_idle_and_take_states(state):
    assert state.object_state(PIANO).description == "idle"
    state.set_object_state(PIANO, Event(PIANO, "is", "being used", "being played by Klaus Mueller"))
    assert state.object_state(PIANO).description == "being played by Klaus Mueller"
    state.reset_object(PIANO)
    assert state.object_state(PIANO).description == "idle"
    with pytest.raises(KeyError, match="not a game object"):
        state.set_object_state("the Ville:Hobbs Cafe:cafe", KLAUS)


def test_sight_respects_radius_and_arena(ville, state):
    counter = (78, 19)
    piano = ville.tiles_of(PIANO)[0]
    state.place_agent("Klaus Mueller", piano, KLAUS)
    state.place_agent("Far Away", (10, 90), Event("Far Away", "is", "", "sleeping"))
    seen = state.visible_events(counter, radius=8)
    subjects = [item.event.subject for item in seen]
    assert "Klaus Mueller" in subjects and PIANO in subjects and "Far Away" not in subjects
    assert [item.distance for item in seen] == sorted(item.distance for item in seen)
    assert all(ville.arena_address_at(item.tile) == "the Ville:Hobbs Cafe:cafe" for item in seen)
    assert not state.visible_events(counter, radius=0) or all(i.distance == 0 for i in state.visible_events(counter, 0))


def test_state_round_trip(ville, state):
    state.place_agent("Klaus Mueller", (78, 19), KLAUS)
    state.set_object_state(PIANO, Event(PIANO, "is", "being used", "being played"))
    copy = WorldState(ville)
    copy.set_state(state.get_state())
    assert copy.get_state() == state.get_state()
    assert copy.visible_events((78, 19)) == state.visible_events((78, 19))


@pytest.mark.parametrize(
    ("tile", "text"),
    [((78, 19), "Hobbs Cafe (cafe)"), ((72, 14), "Isabella Rodriguez's apartment (main room)")],
    ids=["cafe", "apartment"],
)
def test_describe_place(ville, tile, text):
    assert describe_place(ville, tile) == text


def test_describe_surroundings_exact(ville, state):
    state.place_agent("Klaus Mueller", ville.tiles_of(PIANO)[0], KLAUS)
    state.place_agent("Isabella Rodriguez", (78, 19), Event("Isabella Rodriguez", "is", "", "serving coffee"))
    seen = state.visible_events((78, 19), radius=2)
    assert describe_surroundings(ville, (78, 19), seen, "Isabella Rodriguez") == (
        "Isabella Rodriguez is in Hobbs Cafe (cafe). Nearby: behind the cafe counter is idle; "
        "the kitchen sink is idle; the cafe customer seating is idle; the cooking area is idle."
    )
    assert describe_surroundings(ville, (78, 19), [], "Isabella Rodriguez").endswith("Nearby: nothing of note.")


def test_choices_leave_out_other_peoples_homes():
    memory = SpatialMemory.from_file(PERSONAS / "Eddy Lin" / "bootstrap_memory" / "spatial_memory.json")
    memory.add("the Ville:Ryan Park's apartment:main room:bed")
    choices = memory.choices("Eddy Lin")
    # The family's own house is his to choose ("Lin family's house", "Mei and John Lin's bedroom": a Lin's).
    assert "Mei and John Lin's bedroom" in choices["Lin family's house"]
    assert "Ryan Park's apartment" not in choices
    assert memory.knows("the Ville:Ryan Park's apartment:main room:bed")
    assert "Ryan Park's apartment" in memory.choices("Ryan Park")
    text = describe_choices({"Hobbs Cafe": {"cafe": ["piano", "refrigerator"], "kitchen": []}})
    assert text == "Hobbs Cafe: cafe (piano, refrigerator); kitchen"


def test_spatial_memory_grows_and_round_trips():
    memory = SpatialMemory({"the Ville": {}})
    assert memory.add("the Ville:Hobbs Cafe:cafe:piano") is True
    assert memory.add("the Ville:Hobbs Cafe:cafe:piano") is False
    assert SpatialMemory.from_state(memory.get_state()).tree == memory.tree
