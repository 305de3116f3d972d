import json
import random

import pytest

from environment import Event, SeenEvent, UnknownAddress, WorldState

PIANO = "the Ville:Hobbs Cafe:cafe:piano"
COUNTER = "the Ville:Hobbs Cafe:cafe:behind the cafe counter"
SHELF = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
COUNTER_TILE = (78, 19)
KLAUS = Event("Klaus Mueller", "is", "piano", "playing the piano")


@pytest.fixture
def state(ville):
    return WorldState(ville)


def test_objects_start_idle_take_states_and_reset(state):
    assert state.object_state(PIANO) == Event(PIANO, "is", "idle", "idle")
    used = Event(PIANO, "is", "being used", "being used by Klaus Mueller: playing the piano")
    state.set_object_state(PIANO, used)
    assert state.object_state(PIANO) == used
    state.reset_object(PIANO)
    assert state.object_state(PIANO).description == "idle"


@pytest.mark.parametrize(
    "address", ["the Ville:Hobbs Cafe:cafe", "the Ville:Hobbs Cafe:cafe:dance floor"], ids=["arena", "unknown"]
)
def test_only_game_objects_take_states(state, address):
    with pytest.raises(UnknownAddress, match="is not a game object"):
        state.set_object_state(address, KLAUS)


def test_agents_are_placed_moved_and_removed(state):
    state.place_agent("Klaus Mueller", (82, 26), KLAUS)
    state.place_agent("Klaus Mueller", (80, 20), KLAUS)
    assert state.agent_tiles() == {"Klaus Mueller": (80, 20)}
    state.remove_agent("Klaus Mueller")
    assert state.agent_tiles() == {}
    with pytest.raises(ValueError, match="off the map"):
        state.place_agent("Klaus Mueller", (140, 0), KLAUS)
    with pytest.raises(ValueError, match="off the map"):
        state.visible_events((-1, 0))


@pytest.mark.parametrize(
    ("radius", "subjects"),
    [
        (0, [COUNTER]),
        (1, [COUNTER, "the Ville:Hobbs Cafe:cafe:kitchen sink"]),
        (
            2,
            [
                COUNTER,
                "the Ville:Hobbs Cafe:cafe:kitchen sink",
                "the Ville:Hobbs Cafe:cafe:cafe customer seating",
                "the Ville:Hobbs Cafe:cafe:cooking area",
            ],
        ),
    ],
    ids=["radius-0", "radius-1", "radius-2-ties-by-subject"],
)
def test_sight_respects_the_radius(state, radius, subjects):
    assert [seen.event.subject for seen in state.visible_events(COUNTER_TILE, radius)] == subjects


def test_sight_keeps_to_the_arena_unless_told_otherwise(ville, state):
    # Isabella's shelf (78, 14) is 5 tiles north of the cafe counter, behind a wall, in another arena.
    state.place_agent("Isabella Rodriguez", (75, 14), Event("Isabella Rodriguez", "is", "", "sleeping"))
    state.place_agent("Klaus Mueller", (82, 26), KLAUS)
    inside = state.visible_events(COUNTER_TILE, radius=8)
    assert {ville.arena_address_at(seen.tile) for seen in inside} == {"the Ville:Hobbs Cafe:cafe"}
    assert [s.event.subject for s in inside if ":" not in s.event.subject] == ["Klaus Mueller"]
    everything = {seen.event.subject for seen in state.visible_events(COUNTER_TILE, radius=8, same_arena=False)}
    assert {SHELF, "Isabella Rodriguez", "Klaus Mueller", PIANO} <= everything


def test_sight_reports_each_object_once_at_its_nearest_tile(state):
    seen = [s for s in state.visible_events((80, 26), radius=8) if s.event.subject == PIANO]
    assert seen == [SeenEvent(Event(PIANO, "is", "idle", "idle"), (82, 26), 2.0)]


def test_sight_is_sorted_by_distance_then_description_whatever_the_placing_order(ville):
    names = [f"agent {index}" for index in range(6)]
    answers = []
    for seed in range(3):
        state = WorldState(ville)
        random.Random(seed).shuffle(names)
        for name in names:
            state.place_agent(name, (80, 20), Event(name, "is", "", f"waiting ({name})"))
        answers.append(state.visible_events(COUNTER_TILE))
    assert answers[0] == answers[1] == answers[2]
    keys = [(seen.distance, seen.event.description) for seen in answers[0]]
    assert keys == sorted(keys)


def test_the_same_event_on_two_tiles_is_seen_once_at_the_nearer(state):
    chat = Event("Klaus Mueller", "chat with", "Maria Lopez", "talking about the party")
    state.place_agent("Klaus Mueller", (80, 24), chat)
    state.place_agent("Klaus Mueller's echo", (80, 20), chat)
    assert [(s.tile, s.event) for s in state.visible_events(COUNTER_TILE) if s.event == chat] == [((80, 20), chat)]


def test_state_round_trip_through_json_is_exact(ville, state):
    state.place_agent("Klaus Mueller", (82, 26), KLAUS)
    state.place_agent("Isabella Rodriguez", COUNTER_TILE, Event("Isabella Rodriguez", "is", "", "serving coffee"))
    state.set_object_state(PIANO, Event(PIANO, "is", "being used", "being used by Klaus Mueller: playing"))
    saved = json.loads(json.dumps(state.get_state()))
    copy = WorldState(ville)
    copy.set_state(saved)
    assert copy.get_state() == state.get_state()
    assert copy.agent_tiles() == state.agent_tiles()
    assert copy.visible_events(COUNTER_TILE) == state.visible_events(COUNTER_TILE)
    copy.set_state(WorldState(ville).get_state())
    assert copy.agent_tiles() == {} and copy.object_state(PIANO).description == "idle"


@pytest.mark.parametrize(
    ("saved", "error"),
    [
        ({"objects": {}}, ValueError),
        ({"objects": {PIANO: ["too", "short"]}, "agents": {}}, ValueError),
        ({"objects": {"the Ville:Hobbs Cafe:cafe:harp": ["a", "b", "c", "d"]}, "agents": {}}, UnknownAddress),
    ],
    ids=["no-agents", "short-event", "unknown-object"],
)
def test_a_bad_saved_state_is_refused(state, saved, error):
    with pytest.raises(error):
        state.set_state(saved)


def test_a_second_look_from_the_same_tile_sees_changed_states_and_moved_agents(state):
    before = {s.event.subject: s.event.description for s in state.visible_events((80, 26))}
    assert before[PIANO] == "idle" and "Klaus Mueller" not in before
    state.set_object_state(PIANO, Event(PIANO, "is", "being used", "being used by Klaus Mueller: playing"))
    state.place_agent("Klaus Mueller", (82, 26), KLAUS)
    after = {s.event.subject: s.event.description for s in state.visible_events((80, 26))}
    assert after[PIANO] == "being used by Klaus Mueller: playing"
    assert after["Klaus Mueller"] == "playing the piano"
    state.place_agent("Klaus Mueller", (10, 90), KLAUS)
    assert "Klaus Mueller" not in {s.event.subject for s in state.visible_events((80, 26))}


def test_a_kept_look_is_what_a_fresh_look_sees_after_any_change(state, ville):
    """Looks are kept per arena until something there changes: after random moves, uses and releases in and
    around the cafe, every kept look equals the look of a world rebuilt from scratch."""
    rng = random.Random(7)
    objects = [PIANO, COUNTER, SHELF]
    tiles = [(x, y) for x in range(70, 90) for y in range(12, 30)] + [(60, 20), (40, 60)]
    viewers = [(78, 19), (80, 20), (72, 14), (60, 20)]
    by_key = {}  # look_key -> the look it stood for: an equal key later must mean an equal look
    for round_ in range(300):
        change = rng.random()
        if change < 0.5:
            name = rng.choice(["Ann Lee", "Bo Kim", "Cy Doe"])
            state.place_agent(name, rng.choice(tiles), Event(name, "is", "", rng.choice(["reading", "eating"])))
        elif change < 0.8:
            address = rng.choice(objects)
            state.set_object_state(address, Event(address, "is", "being used", f"being used: {rng.randint(0, 3)}"))
        elif change < 0.9:
            state.reset_object(rng.choice(objects))
        else:
            state.remove_agent(rng.choice(["Ann Lee", "Bo Kim", "Cy Doe"]))
        fresh = WorldState(ville)
        fresh.set_state(state.get_state())
        for viewer in viewers:
            look = state.visible_events(viewer, radius=8)
            assert look == fresh.visible_events(viewer, radius=8), round_
            assert by_key.setdefault(state.look_key(viewer, 8), look) == look, round_
