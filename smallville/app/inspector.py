"""The agent inspector: who the selected agent is, what it does where, its plan, what it recalled, its reflections.

The retrieval table is the paper's section 4.1 made visible: each memory with its recency, importance and relevance
(each normalized to 0-1 over the candidates) and the weighted score that ranked it.
"""

from html import escape

import solara
from mesa.visualization.utils import update_counter

from smallville.app.html import bullets, emoji_html, heading, note, table
from smallville.app.selection import chosen, selected_agent
from smallville.app.source import town_of
from smallville.app.views import AgentCard
from smallville.app.voice import VoiceBox
from smallville.app.world_box import WorldBox


def now_html(card: AgentCard) -> str:
    """Who it is, and what it does where now (the pictogram with its words for a browser without emoji)."""
    doing = f"{emoji_html(card.emoji)} {escape(card.activity)}" if card.activity else "no action yet"
    where = f" — <i>{escape(card.place)}</i>" if card.place else ""
    thinking = ""
    if card.thinking_until is not None:
        thinking = (
            f"<div class='agent-thinking'><b>Thinking:</b> its thought takes effect at {card.thinking_until:%H:%M:%S};"
            " until then it stands still and the others see what it was doing</div>"
        )
    return (
        f"<h3 style='margin: 4px 0'>{escape(card.person.name)} ({card.person.age})</h3>"
        f"<div class='agent-now'><b>Now:</b> {doing}{where}</div>{thinking}"
    )


def about_html(card: AgentCard) -> str:
    """The persona: traits, background, what it is up to these days, its lifestyle."""
    person = card.person
    fields = [("Traits", person.innate), ("Background", person.learned), ("Currently", person.currently)]
    fields.append(("Lifestyle", person.lifestyle))
    return "".join(f"<div><b>{label}:</b> {escape(value)}</div>" for label, value in fields)


def plan_html(card: AgentCard, before: int = 2, after: int = 5) -> str:
    """Today's plan around now: a few items before the current one (in bold, marked "now") and more after it."""
    if not card.plan:
        return note("No plan yet: the agent plans its day when it wakes.")
    current = next((index for index, item in enumerate(card.plan) if item.current), 0)
    first, last = max(current - before, 0), min(current + after + 1, len(card.plan))
    items = []
    for item in card.plan[first:last]:
        text = escape(f"{item.start} {item.activity} ({item.minutes} min)")
        items.append(f"<b class='current-plan-item'>{text} ← now</b>" if item.current else text)
    earlier = note(f"({first} earlier items)") if first else ""
    later = note(f"({len(card.plan) - last} later items)") if last < len(card.plan) else ""
    return earlier + bullets(items, "plan") + later


def recalled_html(card: AgentCard) -> str:
    """The last retrieval as a table, best first."""
    if not card.recalled:
        return note("Nothing retrieved yet.")
    rows = [
        [m.description, m.kind, f"{m.recency:.2f}", f"{m.importance:.2f}", f"{m.relevance:.2f}", f"{m.score:.2f}"]
        for m in card.recalled
    ]
    headers = ["memory", "kind", "recency", "importance", "relevance", "score"]
    return f"<div>For: <i>{escape(card.recalled_for)}</i></div>" + table(headers, rows, "recalled")


def recent_html(card: AgentCard) -> str:
    """The newest memories, with their importance (1-10)."""
    if not card.recent:
        return note("No memories yet.")
    rows = [[f"{m.created:%b %d %H:%M}", m.description, m.kind, str(m.importance)] for m in card.recent]
    return table(["when", "memory", "kind", "importance"], rows, "recent")


def reflections_html(card: AgentCard) -> str:
    """The newest reflections, each with the memories it cites."""
    if not card.reflections:
        return note("No reflections yet.")
    items = []
    for reflection in card.reflections:
        when = f"{reflection.created:%b %d %H:%M} " if reflection.created else ""
        cites = bullets([f"cites: {escape(text)}" for text in reflection.cites])
        items.append(f"{escape(when)}<b>{escape(reflection.text)}</b>{cites}")
    return bullets(items, "reflections")


def conversation_html(card: AgentCard) -> str:
    """The talk in progress."""
    if card.partner is None:
        return note("Not talking.")
    lines = [f"<b>{escape(speaker)}:</b> {escape(text)}" for speaker, text in card.conversation]
    return f"<div>Talking with <b>{escape(card.partner)}</b></div>" + bullets(lines, "conversation")


def card_html(card: AgentCard) -> str:
    """The top of the inspector: now, and today's plan around now."""
    return now_html(card) + heading("Today's plan") + plan_html(card)


def mind_html(card: AgentCard) -> str:
    """The rest, below the voice box: memories, the last retrieval, reflections, the talk, the persona."""
    sections = [
        heading("Newest memories") + recent_html(card),
        heading("Retrieved for the last decision") + recalled_html(card),
        heading("Reflections") + reflections_html(card),
        heading("Conversation") + conversation_html(card),
        heading("About") + about_html(card),
    ]
    return "".join(sections)


@solara.component
def AgentInspector(model):
    """Pick an agent (here or on the map) and read its mind: now and its plan first, then the voice box, then memories.

    Laid out as one column the page scrolls (no small box scrolling inside it), so the current plan item, an
    interview's answer and the newest memories show together on a laptop screen.
    """
    update_counter.get()
    town = town_of(model)
    names = town.names()
    name = chosen(names)
    card = town.card(name)
    with solara.Column(style=INSPECTOR_STYLE, classes=["agent-inspector"]) as main:
        solara.Select("Agent", values=names, value=name, on_value=selected_agent.set, dense=True)
        solara.HTML(unsafe_innerHTML=card_html(card), classes=["agent-card"])
        VoiceBox(model)
        if town.live:  # a replay only shows: `run.py fork` changes its past
            WorldBox(model)
        solara.HTML(unsafe_innerHTML=mind_html(card), classes=["agent-mind"])
    return main


INSPECTOR_STYLE = "padding: 0 8px; font-size: 13px; gap: 4px;"
