"""The town's panels: the conversation feed, the relationship graph, diffusion and density, and what it costs.

Figures are matplotlib Figures (no pyplot state), redrawn only when what they show changes: a new DataCollector
row for the plots, a new edge for the graph; the steps between cost them nothing.
"""

from html import escape

import networkx as nx
import pandas as pd
import solara
from matplotlib.figure import Figure
from mesa.visualization.utils import update_counter

from smallville.app.html import PANEL_STYLE, bullets, heading, note
from smallville.app.map_layout import distinct_labels
from smallville.app.selection import chosen
from smallville.app.source import offline, town_of
from smallville.app.views import FeedLine
from smallville.baseline import OFFLINE_BASELINE

FEED_LINES = 40
# The feed scrolls inside its box beside the map, so the inspector below it stays near.
FEED_STYLE = " max-height: 280px; overflow-y: auto; border: 1px solid #ddd; border-radius: 4px;"


def feed_html(lines: list[FeedLine]) -> str:
    """The feed, newest first: "08:14 Isabella Rodriguez → Maria Lopez: ..."; a talk's summary in italics."""
    if not lines:
        return note("No one has talked yet.")
    items = []
    for line in reversed(lines):
        when = f"{line.time:%H:%M}"
        if line.summary:
            items.append(f"{when} <i>{escape(line.speaker)} and {escape(line.partner)}: {escape(line.text)}</i>")
        else:
            items.append(f"{when} <b>{escape(line.speaker)}</b> → {escape(line.partner)}: {escape(line.text)}")
    return bullets(items, "feed")


@solara.component
def ConversationFeed(model):
    """The newest lines said in town."""
    update_counter.get()
    lines = town_of(model).feed(FEED_LINES)
    with solara.Column(style=PANEL_STYLE + FEED_STYLE, classes=["conversation-feed"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Conversations") + feed_html(lines))
    return main


@solara.component
def BaselineNote(model, text: str = OFFLINE_BASELINE):
    """What the offline mind's figures and answers are (and are not), beside those a reader may take for a model's."""
    if offline(model):
        solara.Info(text, classes=["baseline-note"], dense=True)


def graph_figure(graph: nx.Graph, names: list[str], selected: str) -> Figure:
    """Who knows whom, on a circle in the scenario's order; the selected agent and its ties in red."""
    figure = Figure(figsize=(5, 4.2), layout="constrained")
    axes = figure.subplots()
    positions = nx.circular_layout(names)
    ties = [edge for edge in graph.edges() if selected in edge]
    nx.draw_networkx_edges(graph, positions, ax=axes, edge_color="#9e9e9e", width=0.6, nodelist=names)
    nx.draw_networkx_edges(graph, positions, ax=axes, edgelist=ties, edge_color="#c62828", width=1.4, nodelist=names)
    colours = ["#ffd54f" if name == selected else "#bbdefb" for name in names]
    nx.draw_networkx_nodes(graph, positions, ax=axes, nodelist=names, node_color=colours, node_size=260)
    nx.draw_networkx_labels(graph, positions, ax=axes, labels=distinct_labels(names), font_size=7)
    density = nx.density(graph) if len(names) > 1 else 0.0
    axes.set_title(f"{graph.number_of_edges()} ties, density {density:.3f} (estimate)", fontsize=9)
    axes.set_axis_off()
    return figure


@solara.component
def RelationshipGraph(model):
    """The relationship graph of the social tracker (a replay: of the latest snapshot)."""
    update_counter.get()
    town = town_of(model)
    names = town.names()
    graph = town.graph()
    selected = chosen(names)
    edges = sorted(tuple(sorted(edge)) for edge in graph.edges())
    figure = solara.use_memo(lambda: graph_figure(graph, names, selected), [str(edges), selected, model])
    with solara.Column(style=PANEL_STYLE, classes=["relationship-graph"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Relationships"))
        solara.FigureMatplotlib(figure, format="png")
    return main


def hours_since_start(frame: pd.DataFrame) -> pd.Series:
    """The rows' simulated times as hours since the first row (a day's run reads 0 to 24)."""
    times = pd.to_datetime(frame["time"])
    return (times - times.iloc[0]).dt.total_seconds() / 3600


def lines_figure(frame: pd.DataFrame, columns: dict[str, str], ylabel: str, share: bool = False) -> Figure:
    """Columns of the metrics frame over simulated hours (label -> column); readable from the first row on.

    With one row there is no line to draw: each value is a dot, and the axis spans the first hour. A share's
    axis always spans 0 to 1, so a rise reads as a rise and not as a rescaled axis.
    """
    figure = Figure(figsize=(5, 3.2), layout="constrained")
    axes = figure.subplots()
    if len(frame):
        hours = hours_since_start(frame)
        for label, column in columns.items():
            if column in frame:
                axes.plot(hours, frame[column], label=label, marker="o" if len(frame) < 3 else None)
        start = pd.to_datetime(frame["time"].iloc[0])
        axes.set_xlim(0, max(1.0, float(hours.iloc[-1])))
        axes.set_xlabel(f"simulated hours since {start:%a %b %d %H:%M}", fontsize=8)
        axes.legend(fontsize=8, loc="upper left")
    if share:
        axes.set_ylim(-0.02, 1.02)
    else:
        axes.set_ylim(bottom=0)
    axes.set_ylabel(ylabel)
    axes.tick_params(labelsize=8)
    return figure


def diffusion_columns(frame: pd.DataFrame) -> dict[str, str]:
    """Density and every tracked fact's share of agents aware."""
    columns = {"density (estimate)": "density"}
    columns.update(
        {
            f"aware: {name.removeprefix('aware_')} (estimate)": name
            for name in frame.columns
            if name.startswith("aware_")
        }
    )
    return columns


@solara.component
def Diffusion(model):
    """Relationship density and information diffusion over time."""
    update_counter.get()
    frame = town_of(model).metrics()
    figure = solara.use_memo(
        lambda: lines_figure(frame, diffusion_columns(frame), "share (0-1)", share=True), [len(frame), model]
    )
    with solara.Column(style=PANEL_STYLE, classes=["diffusion"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Density and diffusion"))
        solara.FigureMatplotlib(figure, format="png")
    return main


# The cost plot's panels, one axis each (tokens outnumber calls ~1,000 to 1: on one axis the calls lie flat).
COST_PANELS = {"model calls": "model_calls", "tokens": "tokens"}


def cost_figure(frame: pd.DataFrame) -> Figure:
    """Model calls and tokens over simulated hours, each on its own axis (one above the other, the same hours)."""
    figure = Figure(figsize=(5, 4.2), layout="constrained")
    axes = figure.subplots(len(COST_PANELS), 1, sharex=True)
    hours = hours_since_start(frame) if len(frame) else None
    for axis, (label, column) in zip(axes, COST_PANELS.items(), strict=True):
        if hours is not None and column in frame:
            axis.plot(hours, frame[column], marker="o" if len(frame) < 3 else None, color="tab:blue")
            axis.set_xlim(0, max(1.0, float(hours.iloc[-1])))
        axis.set_ylim(bottom=0)
        axis.set_ylabel(label, fontsize=8)
        axis.tick_params(labelsize=8)
    if len(frame):
        axes[-1].set_xlabel(f"simulated hours since {pd.to_datetime(frame['time'].iloc[0]):%a %b %d %H:%M}", fontsize=8)
    return figure


@solara.component
def Costs(model):
    """Model calls, tokens and dollars so far."""
    update_counter.get()
    frame = town_of(model).metrics()
    last = frame.iloc[-1] if len(frame) else None
    figure = solara.use_memo(lambda: cost_figure(frame), [len(frame), model])
    with solara.Column(style=PANEL_STYLE, classes=["costs"]) as main:
        if last is not None:
            totals = (
                f"{int(last['model_calls']):,} model calls, {int(last['tokens']):,} tokens, ${float(last['cost']):.4f}"
            )
            solara.HTML(unsafe_innerHTML=heading("Cost so far") + f"<div class='cost-totals'>{escape(totals)}</div>")
        solara.FigureMatplotlib(figure, format="png")
    return main
