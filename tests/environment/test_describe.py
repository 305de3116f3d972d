import pytest

from environment import (
    Event,
    SeenEvent,
    WorldState,
    describe_choices,
    describe_event,
    describe_place,
    describe_surroundings,
)

PIANO = "the Ville:Hobbs Cafe:cafe:piano"
COUNTER = "the Ville:Hobbs Cafe:cafe:behind the cafe counter"
ISABELLA = "Isabella Rodriguez"


@pytest.mark.parametrize(
    ("tile", "text"),
    [
        ((78, 19), "Hobbs Cafe (cafe)"),
        ((72, 14), "Isabella Rodriguez's apartment (main room)"),
        ((127, 46), "Dorm for Oak Hill College (Klaus Mueller's room)"),
        ((127, 50), "Dorm for Oak Hill College"),
        ((0, 0), "the streets of the Ville"),
    ],
    ids=["cafe", "apartment", "dorm-room", "sector-without-arena", "streets"],
)
def test_describe_place(ville, tile, text):
    assert describe_place(ville, tile) == text


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Event(PIANO, "is", "idle", "idle"), "the piano is idle"),
        (
            Event(PIANO, "is", "being used", "being used by Klaus Mueller: playing the piano"),
            "the piano is being used by Klaus Mueller: playing the piano",
        ),
        (Event(COUNTER, "is", "idle", "idle"), "the cafe counter is idle"),
        (Event("Klaus Mueller", "is", "piano", "playing the piano"), "Klaus Mueller is playing the piano"),
        (Event("Klaus Mueller", "is", "", ""), "Klaus Mueller is idle"),
    ],
    ids=["idle-object", "object-in-use", "standing-place-object", "agent", "agent-without-description"],
)
def test_describe_event(event, text):
    assert describe_event(event) == text


def test_describe_surroundings_in_the_cafe(ville):
    state = WorldState(ville)
    state.place_agent(ISABELLA, (78, 19), Event(ISABELLA, "is", "", "serving coffee"))
    state.place_agent("Klaus Mueller", (79, 20), Event("Klaus Mueller", "is", "piano", "drinking coffee"))
    state.set_object_state(PIANO, Event(PIANO, "is", "being used", "being used by Maria Lopez: playing a song"))
    seen = state.visible_events((78, 19), radius=8)[:5]
    assert describe_surroundings(ville, (78, 19), seen, ISABELLA) == (
        "Isabella Rodriguez is in Hobbs Cafe (cafe). Nearby: the cafe counter is idle; the kitchen sink is idle; "
        "Klaus Mueller is drinking coffee; the cafe customer seating is idle."
    )


def test_describe_surroundings_with_nothing_else_in_sight(ville):
    alone = [SeenEvent(Event(ISABELLA, "is", "", "sleeping"), (72, 14), 0.0)]
    assert describe_surroundings(ville, (72, 14), alone, ISABELLA) == (
        "Isabella Rodriguez is in Isabella Rodriguez's apartment (main room). Nearby: nothing of note."
    )


@pytest.mark.parametrize(
    ("choices", "text"),
    [
        (
            {"Hobbs Cafe": {"cafe": ["refrigerator", "cafe customer seating", "piano"]}},
            "Hobbs Cafe: cafe (refrigerator, cafe customer seating, piano)",
        ),
        (
            {
                "Oak Hill College": {"library": ["library sofa"], "hallway": []},
                "Johnson Park": {"park": ["park garden"]},
            },
            "Oak Hill College: library (library sofa); hallway\nJohnson Park: park (park garden)",
        ),
        ({"Johnson Park": {}}, "Johnson Park"),
        ({}, ""),
    ],
    ids=["one-sector", "two-sectors-and-an-empty-arena", "sector-without-arenas", "nothing-known"],
)
def test_describe_choices(choices, text):
    assert describe_choices(choices) == text
