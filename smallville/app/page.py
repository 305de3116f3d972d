"""The page `run.py serve` starts: Mesa's SolaraViz layout with the Ville's map, the agent inspector and the panels.

`run.py serve` passes its options in the SMALLVILLE_SERVE environment variable (JSON: the model's keyword
arguments, or the run folder to replay); each browser tab gets its own model, built when the tab opens.

The layout is SolaraViz's (controls and parameters in the sidebar, the panels in tabs, Mesa's own ModelCreator and
ComponentsView), but the controls are ours (controls.py): Mesa's step inside the click handler, which freezes the
tab while a language model answers.
"""

import json
import os

import solara
from mesa.visualization.solara_viz import ComponentsView, ModelCreator

from smallville.app.controls import TownControls
from smallville.app.inspector import AgentInspector
from smallville.app.map_panel import TownMap
from smallville.app.params import live_params, replay_params
from smallville.app.replay import ReplayModel
from smallville.app.town_panels import ConversationFeed, Costs, Diffusion, RelationshipGraph
from smallville.app.voice import VoiceBox
from smallville.app.work import work_of

SETTINGS_VARIABLE = "SMALLVILLE_SERVE"

# (component, tab): the town and the selected agent on the first tab, the town's metrics on the second.
COMPONENTS = [
    (TownMap, 0),
    (AgentInspector, 0),
    (ConversationFeed, 0),
    (VoiceBox, 0),
    (RelationshipGraph, 1),
    (Diffusion, 1),
    (Costs, 1),
]


def serve_settings() -> dict:
    """What `run.py serve` asked for: {"model": {...keyword arguments...}} or {"replay": "<run folder>"}."""
    return json.loads(os.environ.get(SETTINGS_VARIABLE) or "{}")


def build_model(settings: dict):
    """A new live model, or the replay of a run folder."""
    if settings.get("replay"):
        return ReplayModel(run_folder=settings["replay"])
    from smallville.model import SmallvilleModel  # noqa: PLC0415 - a replay needs no minds

    return SmallvilleModel(**settings.get("model", {}))


def close_with_page(model):
    """When the tab closes or Reset replaces the model: stop its work, close it once the job in flight has ended."""
    return lambda: work_of(model).close(model.close)


@solara.component
def Page():
    """One browser tab: its own model, the controls and parameters in the sidebar, the panels in two tabs."""
    settings = solara.use_memo(serve_settings, [])
    first = solara.use_memo(lambda: build_model(settings), [])
    model = solara.use_reactive(first)
    parameters = solara.use_reactive({})  # the parameter controls' values: what Reset builds the next model from
    solara.use_effect(lambda: close_with_page(model.value), [model.value])
    replaying = bool(settings.get("replay"))
    params = replay_params(settings["replay"]) if replaying else live_params(settings.get("model", {}))
    with solara.AppBar():
        solara.AppBarTitle("Smallville replay" if replaying else "Smallville")
        solara.lab.ThemeToggle()
    with solara.Sidebar(), solara.Column():
        with solara.Card("Controls"):
            TownControls(model, parameters)
        with solara.Card("Model Parameters"):
            ModelCreator(model, params, model_parameters=parameters)
    ComponentsView(COMPONENTS, model.value)
