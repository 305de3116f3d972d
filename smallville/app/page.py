"""The page `run.py serve` starts: the controls, then three tabs (Town, Relationships and news, Cost).

The Town tab holds the map, and beside it joining the town, the conversation feed and the inspector; the next the
relationship graph and the spread of news; the last what the models cost.

`run.py serve` passes its options in the SMALLVILLE_SERVE environment variable (JSON: the model's keyword
arguments, or the run folder to replay); each browser tab gets its own model, built when the tab opens. The page
says which it shows (a new live town or a replay) and offers the other (town_choice.py).

Not Mesa's SolaraViz layout: its grid of small boxes showed the map as a thumbnail, and its sidebar held sliders
for Mesa's own stepping that did nothing for this page. The controls are ours (controls.py): Mesa's step inside the
click handler, which froze the tab while a language model answered.
"""

import json
import os
from datetime import datetime

import solara

from smallville.app.controls import TownControls
from smallville.app.inspector import AgentInspector
from smallville.app.map_panel import TownMap
from smallville.app.player_box import PlayerBox
from smallville.app.replay import ReplayModel
from smallville.app.replay_controls import ReplayScrubber
from smallville.app.side_by_side import SideBySide
from smallville.app.town_choice import TownChoice, town_title
from smallville.app.town_panels import (
    BaselineNote,
    ConversationFeed,
    Costs,
    Diffusion,
    RelationshipGraph,
)
from smallville.app.work import work_of
from smallville.baseline import OFFLINE_ANSWERS
from smallville.model import SmallvilleModel

SETTINGS_VARIABLE = "SMALLVILLE_SERVE"


def serve_settings() -> dict:
    """What `run.py serve` asked for: {"model": {...keyword arguments...}} or {"replay": "<run folder>"}."""
    return json.loads(os.environ.get(SETTINGS_VARIABLE) or "{}")


def build_model(settings: dict):
    """A new live model, or the replay of a run folder."""
    if settings.get("replay"):
        return ReplayModel(run_folder=settings["replay"])

    return SmallvilleModel(**settings.get("model", {}))


def close_with_page(model):
    """When the tab closes or Reset replaces the model: stop its work, close it once the job in flight has ended."""
    return lambda: work_of(model).close(model.close)


@solara.component
def TownTab(model):
    """The map, kept in view while the column beside it scrolls: joining the town, the talk of the town, the inspector.

    The feed sits beside the map (not two screens below it), and the map column sticks to the top of the window, so
    reading the inspector or the feed never scrolls the town away.
    """
    BaselineNote(model, OFFLINE_ANSWERS)
    with solara.Row(style="align-items: flex-start; flex-wrap: wrap; gap: 8px;", classes=["town-tab"]):
        with solara.Column(style=MAP_COLUMN_STYLE, classes=["map-column"]):
            TownMap(model)
        with solara.Column(style="flex: 0 1 420px; min-width: 340px; gap: 6px;"):
            PlayerBox(model)
            ConversationFeed(model)
            AgentInspector(model)


# The map's column sticks to the top while the page scrolls (the app bar is 64 px high).
MAP_COLUMN_STYLE = "flex: 1 1 760px; min-width: 0; position: sticky; top: 68px; align-self: flex-start;"


@solara.component
def NewsTab(model):
    """Who knows whom and who has heard the news."""
    BaselineNote(model)
    with solara.Row(style="flex-wrap: wrap; gap: 8px;"):
        RelationshipGraph(model)
        Diffusion(model)


@solara.component
def CostTab(model):
    """What the town has cost so far."""
    Costs(model)


# The tabs, in order: (name, component taking the model). A new tab is one more line here.
TABS = [("Town", TownTab), ("Relationships and news", NewsTab), ("Cost", CostTab)]


@solara.component
def Page():
    """One browser tab: its own model; the controls above three tabs."""
    settings = solara.use_memo(serve_settings, [])
    first = solara.use_memo(lambda: build_model(settings), [])
    model = solara.use_reactive(first)
    parameters = solara.use_reactive(_reset_arguments(settings))  # what Reset builds the next model from
    solara.use_effect(lambda: close_with_page(model.value), [model.value])
    town = model.value
    started = solara.use_memo(datetime.now, [town])
    solara.Title("Smallville")
    with solara.AppBar():
        solara.AppBarTitle(town_title(town, started))
    with solara.Column(style="padding: 4px 12px; gap: 4px;"):
        with solara.Row(style="align-items: center; flex-wrap: wrap; gap: 8px;"):
            TownControls(model, parameters)
            TownChoice(model, parameters, settings)
        if isinstance(town, ReplayModel):
            ReplayScrubber(town)
        with solara.lab.Tabs(lazy=True):
            for name, component in TABS:
                with solara.lab.Tab(name):
                    component(town)
            if settings.get("beside") and isinstance(town, ReplayModel):  # run.py serve RUN --beside OTHER
                with solara.lab.Tab("Side by side"):
                    SideBySide(town, settings["beside"])


def _reset_arguments(settings: dict) -> dict:
    """The keyword arguments Reset rebuilds the tab's first model with."""
    if settings.get("replay"):
        return {"run_folder": settings["replay"]}
    return dict(settings.get("model", {}))
