"""Rendering panels and reading them: their HTML as text, the markers of the map."""

import html
import json
import re

import ipyvuetify
import solara
from solara.widgets.widgets import HTML


def render_stacked(model, *panels):
    """The panels of one model (live or a replay) rendered one under another, as the page stacks them; errors raise."""

    @solara.component
    def Stacked():
        with solara.Column():
            for panel in panels:
                panel(model)

    _, rc = solara.render(Stacked(), handle_error=False)
    return rc


def panel_text(rc, css_class: str) -> str:
    """The visible text of the solara.HTML element with this class (tags stripped, entities decoded)."""
    widget = rc.find(HTML, attributes={"class": css_class}).widget
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.unsafe_innerHTML)).split())


def panel_html(rc, css_class: str) -> str:
    """The raw HTML of the solara.HTML element with this class."""
    return rc.find(HTML, attributes={"class": css_class}).widget.unsafe_innerHTML


def all_html_text(rc) -> str:
    """The text of every solara.HTML element rendered."""
    return " ".join(
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.unsafe_innerHTML or "")).split())
        for widget in rc.find(HTML).widgets
    )


def descendants(rc) -> list:
    """Every widget rendered, depth first (reacton's find stops at the outermost match)."""
    found, pending = [], [rc.container]
    while pending:
        widget = pending.pop(0)
        found.append(widget)
        pending[:0] = [child for child in getattr(widget, "children", ()) or () if not isinstance(child, str)]
    return found


def town_map(rc):
    """The map's browser component (town_map.vue): its props are what the browser draws."""
    return next(w for w in descendants(rc) if hasattr(w, "markers_json") and hasattr(w, "labels_json"))


def map_prop(rc, name: str):
    """One of the records the map sends to the browser (as JSON text), read back."""
    return json.loads(getattr(town_map(rc), f"{name}_json"))


def markers(rc) -> list[dict]:
    """The agent markers the map sends to the browser, in the scenario's order."""
    return map_prop(rc, "markers")


def selected_markers(rc) -> list[str]:
    """The names on the markers drawn as selected."""
    return [marker["name"] for marker in markers(rc) if marker["selected"]]


def button(rc, label: str):
    """The button with this label."""
    return rc.find(ipyvuetify.Btn, children=[label]).widget
