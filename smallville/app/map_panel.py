"""The town map: the cached background picture, sector names, and one clickable marker per agent.

Only the markers change from step to step (25 small HTML elements, positions in percent of the map), so a step
costs the browser a few style updates instead of a new picture. Clicking a marker selects the agent.
"""

import base64

import solara
from mesa.visualization.utils import force_update, update_counter

from smallville.app.html import PANEL_STYLE
from smallville.app.map_image import background_png, sector_labels
from smallville.app.replay import ReplayModel
from smallville.app.selection import chosen, selected_agent
from smallville.app.source import town_of
from smallville.app.views import Marker

_MAP_STYLE = (
    "position: relative; width: 100%; aspect-ratio: {ratio}; background-size: 100% 100%; "
    "background-image: url(data:image/png;base64,{png}); image-rendering: pixelated;"
)
_LABEL_STYLE = (
    "position: absolute; left: {left:.2f}%; top: {top:.2f}%; width: {width:.2f}%; text-align: center; "
    "font-size: 9px; line-height: 11px; color: #222; background: rgba(255,255,255,0.55); "
    "white-space: nowrap; overflow: hidden; text-overflow: ellipsis; z-index: 1;"
)
_MARKER_STYLE = (
    "position: absolute; left: {left:.2f}%; top: {top:.2f}%; transform: translate(-50%, -50%); "
    "font-size: 11px; line-height: 14px; padding: 0 3px; border-radius: 7px; white-space: nowrap; cursor: pointer; "
    "background: {background}; border: {border}; opacity: {opacity}; z-index: {z};"
)


def marker_style(marker: Marker, width: int, height: int, selected: bool) -> str:
    """Where a marker sits (the centre of its tile) and how it looks: selected, talking, thinking, asleep."""
    return _MARKER_STYLE.format(
        left=100 * (marker.tile[0] + 0.5) / width,
        top=100 * (marker.tile[1] + 0.5) / height,
        background="#ffd54f" if selected else "rgba(255,255,255,0.9)",
        border=_border(marker, selected),
        opacity="0.6" if marker.sleeping and not selected else "1",
        z=3 if selected else 2,
    )


def _border(marker: Marker, selected: bool) -> str:
    """Red when selected, blue while talking, grey otherwise; dashed while a thought is in flight."""
    line = "dashed" if marker.thinking else "solid"
    if selected:
        return f"2px {line} #c62828"
    return f"1px {line} {'#1565c0' if marker.talking else '#555'}"


@solara.component
def AgentMarker(marker: Marker, style: str, selected: bool):
    """One agent: its pictogram and initials, … while it thinks; the tooltip says what it does; a click selects it."""
    thinking = " …" if marker.thinking else ""
    element = solara.v.Html(
        tag="div",
        children=[f"{marker.emoji} {marker.initials}{thinking}".strip()],
        style_=style,
        class_="agent-marker selected" if selected else "agent-marker",
        attributes={
            "title": f"{marker.name}: {marker.activity or 'no action yet'}{thinking and ' (thinking)'}",
            "data-agent": marker.name,
        },
    )
    solara.v.use_event(element, "click", lambda *_: selected_agent.set(marker.name))
    return element


@solara.component
def TownMap(model):
    """The map with the clock above it; in a replay, a slider to scrub through the run."""
    update_counter.get()
    town = town_of(model)
    ville = model.ville
    markers = town.markers()
    name = chosen(town.names())
    png = solara.use_memo(lambda: base64.b64encode(background_png(ville)).decode("ascii"), [ville])
    with solara.Column(gap="2px", style=PANEL_STYLE) as main:
        with solara.Row(style="align-items: center;"):
            solara.Text(f"{town.now:%a %b %d, %Y, %H:%M:%S}", classes=["town-clock"], style="white-space: nowrap;")
            if isinstance(model, ReplayModel):
                ReplayScrubber(model)
        with solara.Div(
            style=_MAP_STYLE.format(ratio=f"{ville.width} / {ville.height}", png=png), classes=["town-map"]
        ):
            for label in sector_labels(ville):
                style = _LABEL_STYLE.format(left=label.left, top=label.top, width=label.width)
                solara.v.Html(tag="div", children=[label.name], style_=style, attributes={"title": label.name})
            for marker in markers:
                selected = marker.name == name
                AgentMarker(marker, marker_style(marker, ville.width, ville.height, selected), selected).key(
                    marker.name
                )
    return main


@solara.component
def ReplayScrubber(model: ReplayModel):
    """A slider over the run's recorded minutes; moving it only reads the run folder."""

    def seek(frame: int) -> None:
        model.seek(frame)
        force_update()

    solara.SliderInt(
        "Replay (minutes since the start)",
        value=model.frame,
        min=0,
        max=model.frames - 1,
        on_value=seek,
        thumb_label=False,
    )
