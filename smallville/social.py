"""Cheap per-step estimates of the paper's section 7: who knows whom, how news spreads, who came to the party.

All three are computed from the agents' own memories and positions (agents never keep tallies), incrementally:
each update reads only the memory nodes added since the last one. They are estimates from memory text, not the
paper's measures: a memory matching a fact's keywords counts as knowing it (seeing the host's action label too),
and everyone at the gathering's place counts as present (diners and staff too). The paper's own measures, by
interview with each "yes" checked against memory and attendance counted among invitees, are `run.py evaluate`'s
(smallville/evaluation/).
"""

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

import networkx as nx

from smallville.scenarios.scenario import Gathering, TrackedFact

_NAME = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")
# How close a misspelled first and last name must be to a persona's: the data's misspellings are "Haily" for
# "Hailey" (0.91) and "Chan" for "Chen" (0.75); "Moore" and "Moreno" (0.73) are two different families.
FIRST_NAME_CUTOFF = 0.8
LAST_NAME_CUTOFF = 0.75


class NameIndex:
    """A town's names: which persona a possibly misspelled full name refers to ("Abigail Chan" -> "Abigail Chen").

    Fuzzy matches are kept: the same place names ("Hobbs Cafe") recur in thousands of memories, and 250 people are
    too many to compare again. Built once per town, so a lookup costs the same in a town of 25 or of 250.
    """

    def __init__(self, people: Sequence[str]):
        self.people = tuple(people)
        self.exact = frozenset(self.people)
        self._matches: dict[str, str | None] = {}

    def match(self, text: str) -> str | None:
        """The persona `text` names, or None."""
        if text in self.exact:
            return text
        if text not in self._matches:
            self._matches[text] = _closest_person(text, self.people)
        return self._matches[text]

    def named_in(self, text: str) -> set[str]:
        """Every persona a text names by full name, misspellings included."""
        found = {self.match(candidate) for candidate in _NAME.findall(text)}
        return {name for name in found if name}


@lru_cache(maxsize=16)
def town_names(people: tuple[str, ...]) -> NameIndex:
    """The index of a town's names, one per town in the process, so every reader shares its fuzzy matches.

    Take it once per call, not once per memory: hashing the names costs as much as the town is big.
    """
    return NameIndex(people)


def _closest_person(text: str, people: Sequence[str]) -> str | None:
    first, _, last = text.partition(" ")
    # A name's score against each distinct first and last name, computed once: a town of 1,000 has a few dozen of each
    # (its first update read 51 place names like "Maple Cafe", each compared with every person: 0.4 s).
    first_scores: dict[str, float | None] = {}
    last_scores: dict[str, float | None] = {}
    best, best_score = None, 0.0
    for person in people:
        person_first, _, person_last = person.partition(" ")
        if person_first not in first_scores:
            first_scores[person_first] = _similarity(first, person_first, FIRST_NAME_CUTOFF)
        if (first_score := first_scores[person_first]) is None:
            continue
        if person_last not in last_scores:
            last_scores[person_last] = _similarity(last, person_last, LAST_NAME_CUTOFF)
        if (last_score := last_scores[person_last]) is None:
            continue
        if (
            first_score >= FIRST_NAME_CUTOFF
            and last_score >= LAST_NAME_CUTOFF
            and first_score + last_score > best_score
        ):
            best, best_score = person, first_score + last_score
    return best


def _similarity(name: str, other: str, cutoff: float) -> float | None:
    """The similarity of two names (difflib's ratio), or None when its upper bound (quick_ratio) is below the cutoff."""
    matcher = difflib.SequenceMatcher(None, name, other)
    return matcher.ratio() if matcher.quick_ratio() >= cutoff else None


@dataclass(frozen=True)
class Awareness:
    """How one agent came to know a fact: when, and from whom (None: it was a source, or saw it itself)."""

    since: datetime
    source: str | None


@dataclass
class SocialTracker:
    """The relationship graph, each tracked fact's awareness, and a gathering's attendance (keyword estimates).

    Attributes:
        graph: Undirected; an edge when two agents talked, or one holds a thought, chat or reflection naming the
            other (seeded memories included). Merely seeing someone (an event memory) is not knowing them.
        awareness: fact id -> agent -> Awareness (a memory of it matched the fact's keywords, seen or told).
        attendees: Agents seen at the gathering's place during its hours (everyone present, invited or not).
    """

    people: Sequence[str]
    facts: list[TrackedFact]
    gathering: Gathering | None
    graph: nx.Graph = field(default_factory=nx.Graph)
    awareness: dict[str, dict[str, Awareness]] = field(default_factory=dict)
    attendees: set[str] = field(default_factory=set)
    _scanned: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.people = tuple(self.people)
        self._names = town_names(self.people)  # who a memory names, and who is a person, at a cost independent of N
        self.graph.add_nodes_from(self.people)
        for fact in self.facts:
            self.awareness.setdefault(fact.id, {})

    def start(self, now: datetime) -> None:
        """The facts' sources know them from the start."""
        for fact in self.facts:
            for source in fact.sources:
                if source in self.people:
                    self.awareness[fact.id].setdefault(source, Awareness(now, None))

    def update(self, agents, now: datetime) -> None:
        """Read the memories added since the last update, and who is at the gathering."""
        for agent in agents:
            stream = agent.memories.stream
            start = self._scanned.get(agent.name, 0)
            for node_id in range(start, len(stream)):
                self._read(agent.name, stream.node(node_id))
            self._scanned[agent.name] = len(stream)
        if self.gathering and self.gathering.start <= now < self.gathering.end:
            for agent in agents:
                address = agent.model.ville.address_at(agent.tile)
                if address.startswith(self.gathering.place):
                    self.attendees.add(agent.name)

    def _read(self, owner: str, node) -> None:
        observed = getattr(node, "kind", None) == "event"
        named = set() if observed else self._names.named_in(node.description) - {owner}
        if node.partner and node.partner in self._names.exact:
            named.add(node.partner)
        for other in named:
            self.graph.add_edge(owner, other)
        for fact in self.facts:
            known = self.awareness[fact.id]
            if owner not in known and fact.matches(node.description):
                source = node.partner or (node.object if node.object in self._names.exact else None)
                known[owner] = Awareness(node.created, source)

    def density(self) -> float:
        """The paper's network density, 2|E| / (|V| (|V| - 1))."""
        return nx.density(self.graph) if len(self.people) > 1 else 0.0

    def aware_share(self, fact_id: str) -> float:
        """The share of agents who know a fact."""
        return len(self.awareness[fact_id]) / len(self.people)

    def cascade(self, fact_id: str) -> list[tuple[str | None, str, datetime]]:
        """(from, to, when) for every agent who knows the fact, in the order they learned it."""
        known = self.awareness[fact_id]
        return sorted(((a.source, name, a.since) for name, a in known.items()), key=lambda item: item[2])

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "edges": sorted([sorted(edge) for edge in self.graph.edges()]),
            "awareness": {
                fact: {name: [a.since.isoformat(), a.source] for name, a in known.items()}
                for fact, known in self.awareness.items()
            },
            "attendees": sorted(self.attendees),
            "scanned": dict(self._scanned),
        }

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.graph = nx.Graph()
        self.graph.add_nodes_from(self.people)
        self.graph.add_edges_from(tuple(edge) for edge in state["edges"])
        self.awareness = {
            fact: {name: Awareness(datetime.fromisoformat(since), source) for name, (since, source) in known.items()}
            for fact, known in state["awareness"].items()
        }
        self.attendees = set(state["attendees"])
        self._scanned = dict(state["scanned"])
