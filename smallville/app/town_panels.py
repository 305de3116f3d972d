"""The town's panels: the conversation feed, the relationship graph, diffusion and density, and what it costs.

Figures are matplotlib Figures (no pyplot state), redrawn only when what they show changes: a new DataCollector
row for the plots, a new edge for the graph; the steps between cost them nothing.
"""

from html import escape

import networkx as nx
import pandas as pd
import solara
from matplotlib.dates import DateFormatter
from matplotlib.figure import Figure
from mesa.visualization.utils import update_counter

from smallville.app.html import PANEL_STYLE, bullets, heading, note
from smallville.app.selection import chosen
from smallville.app.source import town_of
from smallville.app.views import FeedLine, initials

FEED_LINES = 40


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
    with solara.Column(style=PANEL_STYLE, classes=["conversation-feed"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Conversations") + feed_html(lines))
    return main


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
    nx.draw_networkx_labels(graph, positions, ax=axes, labels={name: initials(name) for name in names}, font_size=7)
    density = nx.density(graph) if len(names) > 1 else 0.0
    axes.set_title(f"{graph.number_of_edges()} ties, density {density:.3f}", fontsize=9)
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


def lines_figure(frame: pd.DataFrame, columns: dict[str, str], ylabel: str) -> Figure:
    """Columns of the metrics frame over simulated time (label -> column)."""
    figure = Figure(figsize=(5, 3.2), layout="constrained")
    axes = figure.subplots()
    times = pd.to_datetime(frame["time"]) if "time" in frame else frame.index
    for label, column in columns.items():
        if column in frame:
            axes.plot(times, frame[column], label=label, marker="o" if len(frame) < 3 else None)
    axes.xaxis.set_major_formatter(DateFormatter("%b %d %H:%M"))
    axes.set_ylabel(ylabel)
    axes.legend(fontsize=8, loc="upper left")
    axes.tick_params(labelsize=8)
    figure.autofmt_xdate()
    return figure


def diffusion_columns(frame: pd.DataFrame) -> dict[str, str]:
    """Density and every tracked fact's share of agents aware."""
    columns = {"density": "density"}
    columns.update(
        {f"aware: {name.removeprefix('aware_')}": name for name in frame.columns if name.startswith("aware_")}
    )
    return columns


@solara.component
def Diffusion(model):
    """Relationship density and information diffusion over time."""
    update_counter.get()
    frame = town_of(model).metrics()
    figure = solara.use_memo(lambda: lines_figure(frame, diffusion_columns(frame), "share (0-1)"), [len(frame), model])
    with solara.Column(style=PANEL_STYLE, classes=["diffusion"]) as main:
        solara.HTML(unsafe_innerHTML=heading("Density and diffusion"))
        solara.FigureMatplotlib(figure, format="png")
    return main


COST_COLUMNS = {"model calls": "model_calls", "tokens / 100": "tokens_per_hundred"}


def _per_hundred(frame: pd.DataFrame) -> pd.DataFrame:
    """Tokens in hundreds, so calls and tokens share an axis."""
    return frame.assign(tokens_per_hundred=frame["tokens"] / 100) if "tokens" in frame else frame


@solara.component
def Costs(model):
    """Model calls, tokens and dollars so far."""
    update_counter.get()
    frame = town_of(model).metrics()
    last = frame.iloc[-1] if len(frame) else None
    figure = solara.use_memo(lambda: lines_figure(_per_hundred(frame), COST_COLUMNS, "count"), [len(frame), model])
    with solara.Column(style=PANEL_STYLE, classes=["costs"]) as main:
        if last is not None:
            totals = (
                f"{int(last['model_calls']):,} model calls, {int(last['tokens']):,} tokens, ${float(last['cost']):.4f}"
            )
            solara.HTML(unsafe_innerHTML=heading("Cost so far") + f"<div class='cost-totals'>{escape(totals)}</div>")
        solara.FigureMatplotlib(figure, format="png")
    return main
