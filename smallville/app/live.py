"""The panels' view of a running SmallvilleModel: read-only, built anew for each render (the trails aside, trails.py).

A panel may read the model while a step runs in the background (controls.py): what it shows is then the town in the
middle of that step, which the next redraw, at the step's end, replaces.
"""

from datetime import datetime

import networkx as nx
import pandas as pd

from memory import MemoryNode, NodeKind, Retrieved
from smallville.app.trails import trails_of
from smallville.app.views import (
    AgentCard,
    FeedLine,
    Marker,
    RecalledMemory,
    Reflection,
    Remembered,
    address_in_words,
    plan_items,
)

# The inspector shows this many of an agent's newest reflections, and of its newest memories.
REFLECTIONS_SHOWN = 5
RECENT_SHOWN = 8
# How often the graph is read before a tie added at the same moment by a step in the background is an error.
GRAPH_READS = 3


class LiveTown:
    """A TownSource over a live model."""

    live = True

    def __init__(self, model):
        self.model = model

    @property
    def now(self) -> datetime:
        """The model's clock."""
        return self.model.now

    def names(self) -> list[str]:
        """The agents in the scenario's order."""
        return [agent.name for agent in self.model.people]

    def markers(self) -> list[Marker]:
        """Every agent where it stands, with its action's pictogram; then the players (smallville/players/)."""
        return [
            Marker(
                name=agent.name,
                tile=agent.tile,
                emoji=agent.action.emoji if agent.action else "",
                activity=agent.action.description if agent.action else "",
                sleeping=agent.sleeping,
                talking=agent.conversation is not None,
                thinking=agent.name in self.model.thoughts,
            )
            for agent in self.model.people
        ] + [
            Marker(name=player.name, tile=player.tile, emoji="🧑", activity=f"{player.persona} (joined the town)",
                   talking=any(player.name in (talk.first, talk.second) for talk in self.model.conversations),
                   player=True)
            for player in self.model.players
        ]  # fmt: skip

    def card(self, name: str) -> AgentCard:
        """Identity, action, plan, last retrieval, reflections and talk of one agent."""
        agent = self.model.by_name[name]
        identity, action, memories = agent.identity, agent.action, agent.memories
        now = self.model.now
        plan = []
        if agent.schedule is not None:
            blocks = [(slot.activity, slot.minutes) for slot in agent.schedule.slots]
            plan = plan_items(blocks, now.hour * 60 + now.minute)
        conversation = agent.conversation
        return AgentCard(
            person=identity,
            activity=action.description if action else "",
            emoji=action.emoji if action else "",
            place=address_in_words(action.address) if action else "",
            plan=plan,
            recalled_for=" | ".join(memories.last_focal_points),
            recalled=[recalled_memory(item) for item in memories.last_retrieved],
            recent=[remembered(node) for node in memories.stream.recent(RECENT_SHOWN)],
            reflections=[
                reflection_of(node, memories.stream.node)
                for node in memories.stream.recent(REFLECTIONS_SHOWN, kinds=[NodeKind.REFLECTION])
            ],
            conversation=list(conversation.lines) if conversation else [],
            partner=conversation.partner_of(name) if conversation else None,
            thinking_until=self.model.thought_takes_effect(name),
        )

    def feed(self, limit: int) -> list[FeedLine]:
        """The newest lines and summaries of the event log."""
        return feed_from_log(self.model.event_log, limit)

    def trails(self, minutes: int) -> dict[str, list[tuple[int, int]]]:
        """The recent walks, as the page noted them (trails.py), with where everyone stands now."""
        trails = trails_of(self.model)
        trails.note(self.model.now, {agent.name: agent.tile for agent in self.model.people})
        return trails.recent(self.model.now, minutes)

    def speech(self) -> list[tuple[str, str]]:
        """Each talk's latest line."""
        return [conversation.lines[-1] for conversation in list(self.model.conversations) if conversation.lines]

    def graph(self) -> nx.Graph:
        """A copy of the social tracker's graph, which a step in the background may be adding a tie to meanwhile."""
        for _ in range(GRAPH_READS - 1):
            try:
                return self.model.social.graph.copy()
            except RuntimeError:  # "dictionary changed size during iteration": a tie was added; read again
                continue
        return self.model.social.graph.copy()

    def metrics(self) -> pd.DataFrame:
        """The DataCollector's model frame, up to its last complete row.

        A panel may draw while a step runs in the background (controls.py), in the middle of the DataCollector
        appending a row column by column; the columns are then cut to the rows all of them have.
        """
        columns = dict(self.model.datacollector.model_vars)
        rows = min((len(values) for values in columns.values()), default=0)
        return pd.DataFrame({name: values[:rows] for name, values in columns.items()})


def recalled_memory(item: Retrieved) -> RecalledMemory:
    """A retrieval result as the inspector shows it."""
    node = item.node
    return RecalledMemory(
        description=node.description,
        kind=str(node.kind),
        created=node.created,
        score=item.score,
        recency=item.recency,
        relevance=item.relevance,
        importance=item.importance,
    )


def remembered(node: MemoryNode) -> Remembered:
    """A stored memory as the inspector lists it."""
    return Remembered(
        description=node.description, kind=str(node.kind), created=node.created, importance=node.importance
    )


def reflection_of(node: MemoryNode, lookup) -> Reflection:
    """A reflection with the descriptions of the memories it cites (`lookup`: id -> node)."""
    return Reflection(
        text=node.description,
        created=node.created,
        cites=tuple(lookup(node_id).description for node_id in node.evidence_ids),
    )


def feed_from_log(entries: list[dict], limit: int) -> list[FeedLine]:
    """The newest `limit` lines and talk summaries of an event log (dicts with time, agent, kind, text, partner)."""
    chosen = []
    for entry in reversed(entries):
        if entry["kind"] in {"line", "talk"}:
            chosen.append(
                FeedLine(
                    time=datetime.fromisoformat(entry["time"]),
                    speaker=entry["agent"],
                    partner=entry.get("partner") or "",
                    text=entry["text"],
                    summary=entry["kind"] == "talk",
                )
            )
            if len(chosen) == limit:
                break
    return chosen[::-1]
