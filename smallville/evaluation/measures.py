"""The end-to-end measures of the paper's section 7, by its definitions, from the checked interviews and the event log.

- Awareness of a fact: the share of agents whose interview answer the fact check accepts and whose memory, shown to
  the judge, supports it (grounded). A "yes" no memory supports is a hallucination, listed with what the judge saw.
- Relationships: an agent knows another when its answer says who the other is and a memory supports that; the
  paper's graph has an edge when both know each other (mutual); the directed graph is reported beside it.
- The cascade: how each aware agent first learned a fact, from the provenance of the earliest memory that supports
  it: seeded (its own seeded memories or status), whispered (a user told it: a whisper, or a broadcast to
  everyone), told (by whom, when), saw; the rest are unaware.
- Attendance (attendance.py): invitees, told before the gathering by the cascade, who came for it.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

import networkx as nx

from memory import MemoryNode, NodeKind
from smallville.scenarios.scenario import Gathering, TrackedFact

# Memories an interview itself left (with `interview --remember`) never ground an answer.
INTERVIEW_PARTNER = "interviewer"
# How planning stores a plan and a day's summary, how a talk's takeaway and a user's whisper are kept
# (agents/cognition/planning.py, conversing.py, agents/agent.py): the predicates that tell a memory's origin.
TAKEAWAY_PREDICATE = "learned from"
WHISPER_PREDICATE = "was told"
# A user's broadcast (smallville/interventions/applying.py): an event everyone remembers, whose subject says it was one.
BROADCAST = "broadcast"
# The id the agent's status at the start (its persona's "currently") is shown under, beside its memories.
STATUS_ID = "status"
# The ways an agent learns a fact, in the order a tie at the same time is broken (the first wins).
HOW = ("seeded", "whispered", "told", "saw", "inferred", "unaware")


def relationship_claim(name: str, other: str) -> str:
    """What a "yes" to "do you know X?" claims, as the fact check and the grounding judge are shown it."""
    return f"{name} knows who {other} is"


def origin(node: MemoryNode, start: datetime) -> tuple[str, str | None] | None:
    """How a memory came to its holder: ("seeded" | "whispered" | "told" | "saw", source); None for a derived one.

    Derived memories (reflections, plans, day summaries) rest on others; their origin is traced through those.
    """
    if node.kind == NodeKind.EVENT:
        return ("whispered", BROADCAST) if node.subject == BROADCAST else ("saw", None)
    if node.kind == NodeKind.CHAT:
        return ("told", node.partner) if node.partner != INTERVIEW_PARTNER else None
    if node.kind == NodeKind.THOUGHT:
        if node.predicate == TAKEAWAY_PREDICATE:
            return "told", node.object or None
        if node.predicate == WHISPER_PREDICATE:
            return "whispered", None
        if not node.predicate and node.created <= start:
            return "seeded", None
    return None


@dataclass(frozen=True)
class Learned:
    """How one agent came to know a fact: seeded, whispered, told (by whom, when), saw (when), inferred or unaware."""

    agent: str
    fact: str
    how: str
    source: str | None = None
    when: datetime | None = None


def learned_from(record: dict) -> Learned:
    """The cascade's entry for one fact check record (unaware unless grounded)."""
    found = record.get("origin") if record.get("grounded") else None
    if not found:
        return Learned(record["agent"], record["subject"], "unaware")
    when = datetime.fromisoformat(found["when"]) if found.get("when") else None
    return Learned(record["agent"], record["subject"], found["how"], found.get("source"), when)


def awareness(checks: list[dict], names: list[str], facts: list[str]) -> dict[str, float]:
    """Per fact, the share of agents with a grounded "yes"."""
    aware: dict[str, set[str]] = defaultdict(set)
    for record in checks:
        if record["kind"] == "fact" and record["grounded"]:
            aware[record["subject"]].add(record["agent"])
    return {fact: len(aware[fact] & set(names)) / len(names) if names else 0.0 for fact in facts}


def knowing_graph(checks: list[dict], names: list[str]) -> nx.DiGraph:
    """A -> B when A's answer says who B is and a memory of A's supports it."""
    graph = nx.DiGraph()
    graph.add_nodes_from(names)
    for record in checks:
        if record["kind"] == "relationship" and record["grounded"] and record["subject"] in graph:
            graph.add_edge(record["agent"], record["subject"])
    return graph


def mutual_graph(directed: nx.DiGraph) -> nx.Graph:
    """The paper's graph: an edge when both know each other."""
    graph = nx.Graph()
    graph.add_nodes_from(directed)
    graph.add_edges_from((a, b) for a, b in directed.edges if directed.has_edge(b, a))
    return graph


def density(graph: nx.Graph | nx.DiGraph) -> float:
    """The paper's density, 2|E| / (n (n - 1)) for the mutual graph, |E| / (n (n - 1)) for the directed one."""
    return nx.density(graph) if len(graph) > 1 else 0.0


def hallucinations(checks: list[dict]) -> list[dict]:
    """Claims of knowledge no memory supports, each with what the judge was shown."""
    return [
        record for record in checks if record["kind"] != "attendance" and record["shows"] and not record["grounded"]
    ]


def gathering_fact(gathering: Gathering | None, facts: list[TrackedFact]) -> TrackedFact | None:
    """The tracked fact that announces the gathering: it matches the gathering's name, else names its place."""
    if gathering is None:
        return None
    place = gathering.place.split(":")[-1]
    return next((fact for fact in facts if fact.matches(gathering.name)), None) or next(
        (fact for fact in facts if place.lower() in fact.description.lower()), None
    )
