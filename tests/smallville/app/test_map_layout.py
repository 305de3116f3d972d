"""The map's fixed geometry: where place names go, the agents' labels and colours, who is in a building."""

import json

import numpy as np
import pytest
import solara

from smallville.app.map_layout import (
    agent_colours,
    building_at,
    distinct_labels,
    emoji_words,
    ink_for,
    largest_rectangle,
    people_in,
    place_labels,
)
from smallville.app.map_panel import TownMap
from smallville.scenarios.scenario import load_scenario
from smallville.town import town_map
from tests.smallville.app.helpers import map_prop
from tests.smallville.app.helpers import town_map as map_widget

N25 = load_scenario("the_ville_n25").select(None)


@pytest.fixture(scope="module")
def ville():
    return town_map(N25)[0]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (["....", "...."], (0, 0, 0, 0)),
        (["#..", "..."], (0, 0, 1, 1)),
        (["##.", "###", ".##"], (0, 0, 2, 2)),
        ([".###.", ".###.", "#####"], (1, 0, 3, 3)),
        (["#.####", "######", "####.."], (2, 0, 4, 2)),
    ],
    ids=["empty", "single", "square-top-left", "tall-middle", "wide"],
)
def test_largest_rectangle(rows, expected):
    mask = np.array([[char == "#" for char in row] for row in rows])
    x, y, w, h = largest_rectangle(mask)
    assert (x, y, w, h)[2] * (x, y, w, h)[3] == expected[2] * expected[3]
    assert mask[y : y + h, x : x + w].all()


def test_every_place_label_lies_inside_its_place_and_no_two_overlap(ville):
    labels = place_labels(ville)
    sectors = [label for label in labels if label.kind == "sector"]
    assert sorted(label.text for label in sectors) == sorted(ville.sectors())
    for label in labels:
        address = f"{ville.world}:{label.sector}" + (f":{label.text}" if label.kind == "arena" else "")
        inside = set(ville.tiles_of(address))
        box = {(x, y) for x in range(label.x, label.x + label.w) for y in range(label.y, label.y + label.h)}
        assert box and box <= inside, label
    for kind in ("sector", "arena"):
        boxes = [label for label in labels if label.kind == kind]
        covered: set = set()
        for label in boxes:
            box = {(x, y) for x in range(label.x, label.x + label.w) for y in range(label.y, label.y + label.h)}
            assert not box & covered, label
            covered |= box


def test_no_two_agents_share_a_marker_label():
    labels = distinct_labels(N25.agent_names)
    assert len(set(labels.values())) == 25
    assert labels["Isabella Rodriguez"] == "IR"  # initials where they are unique
    assert {labels["Rajiv Patel"], labels["Ryan Park"]} == {"RaP", "RyP"}
    assert {labels["Mei Lin"], labels["Maria Lopez"]} == {"MeL", "MaL"}
    assert {labels["Jane Moreno"], labels["Jennifer Moore"]} == {"JaM", "JeM"}
    assert len(set(distinct_labels(["Ann Lee", "Ann Lo", "Ann Lee"]).values())) == 2  # same names stay the same


def test_each_agent_has_its_own_colour_with_readable_letters():
    colours = agent_colours(N25.agent_names)
    assert len(set(colours.values())) == 25
    assert ink_for("#111111") == "#ffffff" and ink_for("#ffff80") == "#111111"


@pytest.mark.parametrize(
    ("emoji", "words"),
    [
        ("☕", "hot beverage"),
        ("💤", "sleeping symbol"),
        ("☀️", "black sun with rays"),
        ("👩‍🍳", "woman, cooking"),
        ("", ""),
    ],
    ids=["coffee", "sleep", "variation-selector", "joined", "none"],
)
def test_every_pictogram_has_words(emoji, words):
    assert emoji_words(emoji) == words


def test_a_building_lists_who_is_inside_and_where(ville):
    cafe = ville.tiles_of(f"{ville.world}:Hobbs Cafe:cafe")[:2]
    street = next((x, y) for y in range(ville.height) for x in range(ville.width) if ville.sector_index[y, x] == 0)
    assert building_at(ville, cafe[0]) == "Hobbs Cafe"
    assert building_at(ville, street) is None and building_at(ville, (-1, 5)) is None
    tiles = {"Isabella Rodriguez": cafe[0], "Klaus Mueller": street, "Maria Lopez": cafe[1]}
    assert people_in(ville, "Hobbs Cafe", tiles) == [("Isabella Rodriguez", "cafe"), ("Maria Lopez", "cafe")]


def test_clicking_a_building_on_the_map_opens_who_is_inside(talking_model):
    _, rc = solara.render(TownMap(talking_model), handle_error=False)
    view = map_widget(rc)
    assert json.loads(view.place_json) is None
    speaker = talking_model.people[0]
    view.vue_click_place({"x": speaker.tile[0], "y": speaker.tile[1]})
    place = map_prop(rc, "place")
    sector = talking_model.ville.place_at(speaker.tile).sector
    assert place["building"] == sector and place["title"].startswith(f"{sector} at {talking_model.now:%H:%M}")
    expected = [a.name for a in talking_model.people if talking_model.ville.place_at(a.tile).sector == sector]
    assert [person["name"] for person in place["people"]] == expected
    assert place["people"][0]["activity"] == speaker.action.description
    map_widget(rc).vue_close_place({})
    assert map_prop(rc, "place") is None
    rc.close()


def test_speech_shows_each_talks_latest_line_at_its_speaker(talking_model):
    _, rc = solara.render(TownMap(talking_model), handle_error=False)
    conversation = talking_model.conversations[0]
    speaker, text = conversation.lines[-1]
    assert {"name": speaker, "text": text} in map_prop(rc, "speech")
    rc.close()
