"""Memory nodes: the four kinds of the paper's memory stream as one tagged record."""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class NodeKind(StrEnum):
    """What a memory is: something perceived, a conversation, a thought (plans, summaries), or a reflection."""

    EVENT = "event"
    CHAT = "chat"
    THOUGHT = "thought"
    REFLECTION = "reflection"


@dataclass(frozen=True)
class MemoryNode:
    """One memory. Its numbers (times, importance, embedding) also live in the stream's numpy columns.

    Attributes:
        id: Position in its stream, from 0.
        kind: Event, chat, thought or reflection.
        created: Simulated time it was stored.
        description: The memory in words.
        subject, predicate, object: The event triple ("Isabella Rodriguez", "serve", "coffee").
        keywords: Words it can be found by (names, objects).
        importance: 1 (mundane) to 10 (poignant).
        evidence_ids: The nodes it rests on (a reflection's citations).
        depth: 0 for observations; a reflection is one deeper than its deepest evidence.
        partner: The other speaker of a chat.
        lines: A chat's (speaker, text) lines.
    """

    id: int
    kind: NodeKind
    created: datetime
    description: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    keywords: frozenset[str] = frozenset()
    importance: int = 1
    evidence_ids: tuple[int, ...] = ()
    depth: int = 0
    partner: str | None = None
    lines: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        """Plain data (for states and stores)."""
        return {
            "id": self.id,
            "kind": str(self.kind),
            "created": self.created.isoformat(),
            "description": self.description,
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "keywords": sorted(self.keywords),
            "importance": self.importance,
            "evidence_ids": list(self.evidence_ids),
            "depth": self.depth,
            "partner": self.partner,
            "lines": [list(line) for line in self.lines],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "MemoryNode":
        """Rebuild a node from `to_dict`."""
        return cls(
            id=data["id"],
            kind=NodeKind(data["kind"]),
            created=datetime.fromisoformat(data["created"]),
            description=data["description"],
            subject=data["subject"],
            predicate=data["predicate"],
            object=data["object"],
            keywords=frozenset(data["keywords"]),
            importance=data["importance"],
            evidence_ids=tuple(data["evidence_ids"]),
            depth=data["depth"],
            partner=data["partner"],
            lines=tuple(tuple(line) for line in data["lines"]),
        )
