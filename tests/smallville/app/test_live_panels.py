"""The panels on a live town, rendered with solara's own test tools: what each shows, and what a click does."""

import time

import ipyvuetify
import ipywidgets
import networkx as nx
import pytest
import solara
from mesa.visualization.utils import force_update

from smallville.app.inspector import AgentInspector
from smallville.app.map_layout import emoji_words
from smallville.app.map_panel import TownMap
from smallville.app.selection import selected_agent
from smallville.app.town_panels import (
    ConversationFeed,
    Costs,
    Diffusion,
    RelationshipGraph,
    diffusion_columns,
    graph_figure,
    lines_figure,
)
from smallville.app.voice import VoiceBox, voice_error
from smallville.app.work import work_of
from tests.smallville.app.conftest import FAST
from tests.smallville.app.helpers import (
    all_html_text,
    button,
    map_prop,
    markers,
    panel_html,
    panel_text,
    render_stacked,
    selected_markers,
    town_map,
)


def test_the_map_shows_every_agent_with_a_distinct_label_its_activity_and_the_selection(talking_model):
    _, rc = solara.render(TownMap(talking_model), handle_error=False)
    drawn = markers(rc)
    assert [marker["name"] for marker in drawn] == [agent.name for agent in talking_model.people]
    for marker, agent in zip(drawn, talking_model.people, strict=True):
        assert marker["label"] == "".join(part[0] for part in agent.name.split())
        assert marker["emoji"] == agent.action.emoji and marker["activity"] == agent.action.description
        assert (marker["x"], marker["y"]) == agent.tile
        assert marker["emoji_words"]  # the words shown where the browser has no emoji font
    assert len({marker["colour"] for marker in drawn}) == len(drawn)
    assert selected_markers(rc) == [talking_model.people[0].name]
    assert town_map(rc).map_w == 140 and town_map(rc).map_h == 100
    assert town_map(rc).background.startswith("data:image/png;base64,")


def test_clicking_a_marker_selects_that_agent_on_the_map_and_in_the_inspector(talking_model):
    rc = render_stacked(talking_model, TownMap, AgentInspector)
    town_map(rc).vue_select_agent("Klaus Mueller")  # what a click on its marker sends
    assert selected_agent.value == "Klaus Mueller"
    assert selected_markers(rc) == ["Klaus Mueller"]
    assert panel_text(rc, "agent-card").startswith("Klaus Mueller (20)")


def test_only_the_selected_agents_trail_travels_until_every_trail_is_ticked(talking_model):
    """1,000 people's hour of walking is a megabyte of JSON a step: the browser gets the trails it draws."""
    rc = render_stacked(talking_model, TownMap, AgentInspector)
    names = [agent.name for agent in talking_model.people]
    assert list(map_prop(rc, "trails")) == [names[0]] and not town_map(rc).every_trail
    town_map(rc).vue_select_agent(names[1])  # what a click on its marker sends
    assert list(map_prop(rc, "trails")) == [names[1]]
    town_map(rc).vue_show_every_trail(True)  # the box ticked
    assert sorted(map_prop(rc, "trails")) == sorted(names) and town_map(rc).every_trail
    town_map(rc).vue_show_every_trail(False)
    assert list(map_prop(rc, "trails")) == [names[1]]
    rc.close()


@pytest.mark.slow  # steps a fresh town
def test_markers_move_when_the_model_steps():
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(**FAST)

    def walkers():  # one with a thought in flight stands still until it is applied (smallville/thinking.py)
        return [a for a in model.people if a.action and a.action.path and a.name not in model.thoughts]

    while not walkers():
        model.step()
    walker = walkers()[0]
    selected_agent.set(walker.name)  # its trail is drawn (and sent): the selected agent's
    _, rc = solara.render(TownMap(model), handle_error=False)
    before = {marker["name"]: (marker["x"], marker["y"]) for marker in markers(rc)}
    model.step()
    force_update()
    after = {marker["name"]: (marker["x"], marker["y"]) for marker in markers(rc)}
    assert after[walker.name] != before[walker.name] and after[walker.name] == walker.tile
    # The trail holds where the walker was and where it is now.
    assert map_prop(rc, "trails")[walker.name][-2:] == [list(before[walker.name]), list(walker.tile)]
    model.close()


@pytest.mark.slow  # steps a fresh town
def test_an_agent_whose_thought_is_in_flight_shows_it_on_the_map_and_in_the_inspector():
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(**FAST)  # the default: a thought that asks a model takes effect 20 steps later
    model.step()  # each agent wakes with a thought in flight
    (thinker, *_) = [agent.name for agent in model.people if agent.name in model.thoughts]
    selected_agent.set(thinker)
    rc = render_stacked(model, TownMap, AgentInspector)
    marker = next(marker for marker in markers(rc) if marker["name"] == thinker)
    assert marker["thinking"]
    due = model.thought_takes_effect(thinker)
    assert f"Thinking: its thought takes effect at {due:%H:%M:%S}" in panel_text(rc, "agent-card")
    while thinker in model.thoughts:
        model.step()
    force_update()
    marker = next(marker for marker in markers(rc) if marker["name"] == thinker)
    assert not marker["thinking"]
    assert "Thinking:" not in panel_text(rc, "agent-card")
    assert model.now == due  # it took effect at the end of its due step, as the card said
    model.close()


def test_the_inspector_shows_identity_plan_retrieval_and_the_talk(talking_model):
    conversation = talking_model.conversations[0]
    speaker = talking_model.by_name[conversation.first]
    selected_agent.set(speaker.name)
    _, rc = solara.render(AgentInspector(talking_model), handle_error=False)
    text = panel_text(rc, "agent-card") + " " + panel_text(rc, "agent-mind")
    assert text.startswith(f"{speaker.name} ({speaker.identity.age})")
    assert f"Traits: {speaker.identity.innate}" in text
    words = emoji_words(speaker.action.emoji)
    assert f"Now: {speaker.action.emoji} ({words}) {speaker.action.description}" in text
    # The plan: the slot the clock is in, marked.
    html = panel_html(rc, "agent-card")
    current = [slot for slot in speaker.schedule.slots if slot.activity == speaker.action.description]
    assert "current-plan-item" in html and current
    assert html.count("current-plan-item") == 1
    # The last retrieval, with its three signals and score, as the agent's memory holds it.
    retrieved = speaker.memories.last_retrieved
    assert retrieved, "a talking agent has retrieved memories for its line"
    best = retrieved[0]
    row = (
        f"{best.node.description} {best.node.kind} {best.recency:.2f} {best.importance:.2f} "
        f"{best.relevance:.2f} {best.score:.2f}"
    )
    assert row in text
    assert f"Talking with {conversation.partner_of(speaker.name)}" in text
    for who, line in conversation.lines:
        assert f"{who}: {line}" in text


def test_the_inspector_list_selects_an_agent(talking_model):
    _, rc = solara.render(AgentInspector(talking_model), handle_error=False)
    select = rc.find(ipyvuetify.Select, label="Agent").widget
    assert select.items == ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
    select.v_model = "Maria Lopez"
    assert panel_text(rc, "agent-card").startswith("Maria Lopez (21)")


def test_text_from_the_agents_is_escaped(talking_model):
    agent = talking_model.people[0]
    talking_model.run_async(
        agent.memories.add(
            agent.memories.stream.node(0).kind,
            "<script>alert(1)</script> & co",
            created=talking_model.now,
            importance=3,
        )
    )
    selected_agent.set(agent.name)
    _, rc = solara.render(AgentInspector(talking_model), handle_error=False)
    html = panel_html(rc, "agent-mind")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html


def test_the_feed_shows_the_lines_said_newest_first(talking_model):
    _, rc = solara.render(ConversationFeed(talking_model), handle_error=False)
    text = all_html_text(rc)
    lines = [entry for entry in talking_model.event_log if entry["kind"] == "line"]
    assert lines
    newest, oldest = lines[-1], lines[0]
    assert f"{newest['agent']} → {newest['partner']}: {newest['text']}" in text
    assert text.index(newest["text"]) <= text.index(oldest["text"])


def test_town_panels_show_the_graph_density_and_costs(talking_model):
    rc = render_stacked(talking_model, RelationshipGraph, Diffusion, Costs)
    row = talking_model.datacollector.get_model_vars_dataframe().iloc[-1]
    assert f"{int(row['model_calls']):,} model calls, {int(row['tokens']):,} tokens, $0.0000" in all_html_text(rc)
    pictures = rc.find(ipywidgets.Image).widgets
    assert len(pictures) == 3 and all(bytes(picture.value).startswith(b"\x89PNG") for picture in pictures)


def test_the_graph_figure_draws_every_tie_and_names_the_density(talking_model):
    graph = talking_model.social.graph
    names = [agent.name for agent in talking_model.people]
    figure = graph_figure(graph, names, "Klaus Mueller")
    title = figure.axes[0].get_title()
    assert title == f"{graph.number_of_edges()} ties, density {nx.density(graph):.3f} (estimate)"
    labels = sorted(text.get_text() for text in figure.axes[0].texts)
    assert labels == ["IR", "KM", "ML"]


def test_charts_read_in_simulated_hours_from_the_first_row(talking_model):
    first = talking_model.datacollector.get_model_vars_dataframe().iloc[:1]
    axes = lines_figure(first, diffusion_columns(first), "share", share=True).axes[0]
    assert axes.get_xlim() == (0.0, 1.0) and axes.get_ylim() == (-0.02, 1.02)
    assert axes.get_xlabel() == "simulated hours since Mon Feb 13 00:00"
    assert all(line.get_marker() == "o" for line in axes.get_lines())  # one row: a dot each, not an empty line
    frame = talking_model.datacollector.get_model_vars_dataframe()
    hours = lines_figure(frame, diffusion_columns(frame), "share").axes[0].get_lines()[0].get_xdata()
    assert hours[0] == 0 and abs(hours[-1] - (talking_model.now - talking_model.start).total_seconds() / 3600) < 0.02


def test_the_diffusion_plot_has_density_and_one_line_per_tracked_fact(talking_model):
    frame = talking_model.datacollector.get_model_vars_dataframe()
    figure = lines_figure(frame, diffusion_columns(frame), "share")
    labels = [line.get_label() for line in figure.axes[0].get_lines()]
    assert labels == ["density (estimate)", "aware: party (estimate)", "aware: candidacy (estimate)"]
    assert list(figure.axes[0].get_lines()[0].get_ydata()) == list(frame["density"])


def typed_into(rc, label: str, text: str, button_label: str, seconds: float = 10.0):
    """Type `text` into the field `label` and return the button it enables, typing again while the page settles.

    The answer to an earlier job re-renders the box from the worker thread, and Solara may still be replacing its
    widgets after the work queue is empty: text typed into a replaced field goes nowhere, as it would for a user who
    typed during the redraw. A user sees the empty box and types again; so does this, for a few seconds at most.
    """
    deadline = time.monotonic() + seconds
    while True:
        rc.find(ipyvuetify.TextField, label=label).widget.v_model = text
        found = button(rc, button_label)
        if not found.disabled or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_interview_answers_in_character_and_whisper_adds_a_memory(talking_model):
    agent = talking_model.by_name["Isabella Rodriguez"]
    selected_agent.set(agent.name)
    _, rc = solara.render(VoiceBox(talking_model), handle_error=False)
    question = rc.find(ipyvuetify.TextField, label="Interview question").widget
    question.v_model = "What are you planning?"
    calls = talking_model.gateway.ledger.totals().calls
    button(rc, "Ask").click()
    assert work_of(talking_model).wait(60)
    answer = rc.find(ipyvuetify.Html, class_="voice-answer").widget.children[0]
    assert answer.startswith("Isabella Rodriguez: ") and len(answer) > len("Isabella Rodriguez: ") + 10
    assert talking_model.gateway.ledger.totals().calls == calls + 1
    before = len(agent.memories.stream)
    whisper = typed_into(rc, "Inner voice (a memory to give)", "The town hall meeting moved to Friday", "Whisper")
    assert not whisper.disabled, "typing the statement did not enable Whisper"
    whisper.click()
    assert work_of(talking_model).wait(60)
    assert voice_error.value == ""
    assert len(agent.memories.stream) == before + 1
    assert agent.memories.stream.node(before).description == "The town hall meeting moved to Friday"
