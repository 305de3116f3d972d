"""The town map, the page's centre: the Ville drawn from its own layers, zoomable, with every agent on it.

The browser part (town_map.vue) draws and moves things on the screen (zoom, pan, label placement, markers kept
apart, full screen) without asking the server; this part sends it what changes with a step (25 small records, the
trails, the lines being said) and answers clicks: a marker selects its agent, a building lists who is inside.
"""

import base64
import json
from collections.abc import Callable

import solara
from mesa.visualization.utils import update_counter

from smallville.app.map_image import background_png
from smallville.app.map_layout import (
    agent_colours,
    building_at,
    distinct_labels,
    emoji_words,
    ink_for,
    labels_as_props,
    people_in,
)
from smallville.app.player_box import picked_place
from smallville.app.selection import chosen, selected_agent
from smallville.app.source import town_of
from smallville.app.views import Marker, TownSource
from smallville.app.world_box import objects_in, picked_object

# The trails on the map: where each agent walked over this many simulated minutes.
TRAIL_MINUTES = 60
# A player's marker (a person who joined the town): black, apart from every agent's colour.
PLAYER_COLOUR = "#212121"


@solara.component_vue("town_map.vue")
def TownMapView(
    background: str,
    map_w: int,
    map_h: int,
    labels_json: str,
    markers_json: str,
    trails_json: str,
    every_trail: bool,
    speech_json: str,
    place_json: str,
    event_select_agent: Callable[[str], None],
    event_click_place: Callable[[dict], None],
    event_close_place: Callable[[dict], None],
    event_pick_object: Callable[[str], None],
    event_show_every_trail: Callable[[bool], None],
):
    """The map in the browser (see town_map.vue).

    The records travel as JSON text: reacton walks every list and dict a component is given, looking for elements
    inside, and 25 markers with their trails made that walk most of a step's re-render; a string it passes by.
    Only the trails drawn travel: the selected agent's, or everyone's once "every trail" is ticked (1,000 people's
    hour of walking is a megabyte of JSON a step, for the server to write and the browser to read).
    """


def marker_props(markers: list[Marker], names: list[str], selected: str) -> list[dict]:
    """The markers as the browser draws them: a label no other agent shares, a colour of its own, the state."""
    labels, colours = distinct_labels(names), agent_colours(names)
    return [
        {
            "name": marker.name,
            "label": labels.get(marker.name, marker.name[:2]),
            "colour": colours.get(marker.name, PLAYER_COLOUR),
            "ink": ink_for(colours.get(marker.name, PLAYER_COLOUR)),
            "x": marker.tile[0],
            "y": marker.tile[1],
            "emoji": marker.emoji,
            "emoji_words": emoji_words(marker.emoji),
            "activity": marker.activity,
            "sleeping": marker.sleeping,
            "talking": marker.talking,
            "thinking": marker.thinking,
            "selected": marker.name == selected,
            "player": marker.player,
        }
        for marker in markers
    ]


def place_props(town: TownSource, ville, building: str, markers: list[Marker], names: list[str], world=None) -> dict:
    """Who is inside a building (sector), for the box the map opens when it is clicked.

    With a live town's `world` (its WorldState), the building's objects and their states too, to pick one to change.
    """
    colours = agent_colours(names)
    doing = {marker.name: marker.activity for marker in markers}
    inside = people_in(ville, building, {marker.name: marker.tile for marker in markers})
    count = f"{len(inside)} {'person' if len(inside) == 1 else 'people'}"
    return {
        "title": f"{building} at {town.now:%H:%M}: {count}",
        "building": building,
        "people": [
            {"name": name, "arena": arena, "activity": doing[name], "colour": colours.get(name, PLAYER_COLOUR)}
            for name, arena in inside
        ],
        "objects": objects_in(ville, building, world) if world is not None else [],
    }


@solara.component
def TownMap(model):
    """The map of the town: click an agent to inspect it, a building to see who is inside."""
    update_counter.get()
    town = town_of(model)
    ville = model.ville
    names = town.names()
    name = chosen(names)
    building, set_building = solara.use_state(None)
    every_trail, set_every_trail = solara.use_state(False)
    markers = town.markers()
    background = solara.use_memo(
        lambda: "data:image/png;base64," + base64.b64encode(background_png(ville)).decode("ascii"), [ville]
    )
    labels = solara.use_memo(lambda: json.dumps(labels_as_props(ville)), [ville])

    def click_place(tile: dict) -> None:
        clicked = building_at(ville, (int(tile["x"]), int(tile["y"])))
        set_building(clicked)
        if clicked:
            picked_place.set(clicked)  # where a player goes next (player_box.py)

    return TownMapView(
        background=background,
        map_w=ville.width,
        map_h=ville.height,
        labels_json=labels,
        markers_json=json.dumps(marker_props(markers, names, name)),
        trails_json=json.dumps(
            {
                agent: [list(tile) for tile in tiles]
                for agent, tiles in town.trails(TRAIL_MINUTES).items()
                if every_trail or agent == name
            }
        ),
        every_trail=every_trail,
        speech_json=json.dumps([{"name": speaker, "text": text} for speaker, text in town.speech()]),
        place_json=json.dumps(
            place_props(town, ville, building, markers, names, getattr(model, "state", None)) if building else None
        ),
        event_select_agent=selected_agent.set,
        event_click_place=click_place,
        event_close_place=lambda *_: set_building(None),
        event_pick_object=picked_object.set,  # the world box (world_box.py) takes it
        event_show_every_trail=lambda shown: set_every_trail(bool(shown)),
    )
