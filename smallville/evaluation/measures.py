"""The end-to-end measures of the paper's section 7, checked against what the agents really remember and did.

An interview answer that claims a fact or an acquaintance is only counted when the agent's memory backs it
(grounded); the rest are hallucinations, counted and listed. Attendance counts invitees, those told of the
gathering in a talk before it began, who came, beside everyone present. The diffusion cascade says how each agent
learned each fact: seeded, told (by whom, when), or saw.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from memory import MemoryNode, NodeKind
from smallville.scenario import Gathering, TrackedFact
from smallville.social import town_names

# Memories an interview itself left (with `interview --remember`) never ground an answer.
INTERVIEW_PARTNER = "interviewer"


def _texts(node: MemoryNode) -> list[str]:
    return [node.description, *(text for speaker, text in node.lines if speaker != node.subject)]


def fact_grounded(name: str, fact: TrackedFact, nodes: Iterable[MemoryNode]) -> bool:
    """Whether the agent's memory backs knowing the fact: it is a source, or a memory of it states it."""
    if name in fact.sources:
        return True
    return any(node.partner != INTERVIEW_PARTNER and any(map(fact.matches, _texts(node))) for node in nodes)


def people_known(nodes: Iterable[MemoryNode], people: list[str]) -> set[str]:
    """Everyone the agent's memory backs knowing: whom it talked with, and whom a memory of it names."""
    known, names = set(), town_names(tuple(people))
    for node in nodes:
        if node.partner != INTERVIEW_PARTNER:
            known |= names.named_in(" ".join(_texts(node))) | ({node.partner} if node.partner else set())
    return known


def acquaintance_grounded(other: str, nodes: Iterable[MemoryNode], people: list[str]) -> bool:
    """Whether the agent's memory backs knowing `other`: it talked with them or a memory names them."""
    return other in people_known(nodes, people)


def gathering_fact(gathering: Gathering | None, facts: list[TrackedFact]) -> TrackedFact | None:
    """The tracked fact that announces the gathering: it matches the gathering's name, else names its place."""
    if gathering is None:
        return None
    place = gathering.place.split(":")[-1]
    return next((fact for fact in facts if fact.matches(gathering.name)), None) or next(
        (fact for fact in facts if place.lower() in fact.description.lower()), None
    )


@dataclass(frozen=True)
class Attendance:
    """Invitees (told in a talk before the gathering began), those of them who came, and everyone present."""

    invited: tuple[str, ...]
    came: tuple[str, ...]
    present: tuple[str, ...]

    def as_dict(self) -> dict:
        """The contract's figures: {"invited": n, "came": k, "present": m}."""
        return {"invited": len(self.invited), "came": len(self.came), "present": len(self.present)}

    def text(self) -> str:
        """The paper's way of saying it: "5 of 12 invited came (7 present in all)"."""
        return f"{len(self.came)} of {len(self.invited)} invited came ({len(self.present)} present in all)"


def _time(entry: dict) -> datetime:
    return datetime.fromisoformat(entry["time"])


def attendance(log: list[dict], gathering: Gathering, fact: TrackedFact | None, until: datetime) -> Attendance:
    """Who was invited and came, from the event log: "line" entries (speaker, partner, text) and "action" entries.

    An agent is present when an action it was doing during the gathering's hours had an address at its place
    (an action lasts until the agent's next one). Hosts (the fact's sources) are present but never invitees.
    """
    entries = sorted((entry for entry in log if _time(entry) <= until), key=_time)
    invited = set()
    for entry in entries if fact is not None else ():
        told = entry.get("partner")
        announces = entry["kind"] == "line" and _time(entry) < gathering.start and fact.matches(entry["text"])
        if announces and told and told != entry["agent"] and told not in fact.sources:
            invited.add(told)
    actions: dict[str, list[dict]] = {}
    for entry in entries:
        if entry["kind"] == "action":
            actions.setdefault(entry["agent"], []).append(entry)
    present = set()
    for agent, done in actions.items():
        ends = [_time(entry) for entry in done[1:]] + [until]
        for entry, stop in zip(done, ends, strict=True):
            overlaps = _time(entry) < gathering.end and stop > gathering.start
            if overlaps and (entry.get("address") or "").startswith(gathering.place):
                present.add(agent)
    came = invited & present
    return Attendance(tuple(sorted(invited)), tuple(sorted(came)), tuple(sorted(present)))


@dataclass(frozen=True)
class Learned:
    """How one agent came to know a fact: "seeded", "told" (by whom, when), "saw" (when), or "unaware"."""

    agent: str
    fact: str
    how: str
    source: str | None = None
    when: datetime | None = None


def cascade(
    fact: TrackedFact, people: list[str], log: list[dict], memories: dict[str, list[MemoryNode]], until: datetime
) -> list[Learned]:
    """For each agent, the first way it learned the fact by `until`: seeded, told in a talk, or saw it."""
    found = []
    lines = sorted((e for e in log if e["kind"] == "line" and _time(e) <= until and fact.matches(e["text"])), key=_time)
    for name in people:
        if name in fact.sources:
            found.append(Learned(name, fact.id, "seeded"))
            continue
        told = next((e for e in lines if e.get("partner") == name and e["agent"] != name), None)
        if told is not None:
            found.append(Learned(name, fact.id, "told", told["agent"], _time(told)))
            continue
        seen = [
            node
            for node in memories.get(name, [])
            if node.kind == NodeKind.EVENT and node.created <= until and fact.matches(node.description)
        ]
        found.append(
            Learned(name, fact.id, "saw", None, seen[0].created) if seen else Learned(name, fact.id, "unaware")
        )
    return found
