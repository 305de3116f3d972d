"""The page `run.py serve` starts: Mesa's SolaraViz with the Ville's map, the agent inspector and the town panels.

`run.py serve` passes its options in the SMALLVILLE_SERVE environment variable (JSON: the model's keyword
arguments, or the run folder to replay); each browser tab gets its own model, built when the tab opens.
"""

import json
import os

import solara
from mesa.visualization import SolaraViz

from smallville.app.inspector import AgentInspector
from smallville.app.map_panel import TownMap
from smallville.app.params import live_params, replay_params
from smallville.app.replay import ReplayModel
from smallville.app.town_panels import ConversationFeed, Costs, Diffusion, RelationshipGraph
from smallville.app.voice import VoiceBox

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


@solara.component
def Page():
    """One browser tab: its own model, Mesa's controls in the sidebar, the panels in two tabs."""
    settings = solara.use_memo(serve_settings, [])
    model = solara.use_memo(lambda: build_model(settings), [])
    replaying = bool(settings.get("replay"))
    params = replay_params(settings["replay"]) if replaying else live_params(settings.get("model", {}))
    SolaraViz(
        model,
        components=COMPONENTS,
        model_params=params,
        name="Smallville replay" if replaying else "Smallville",
        play_interval=50,
        render_interval=1,
    )
