"""An agent's memory stream together with what storing needs: embeddings as they arrive, importance in batches.

Perceived events wait in a short queue until several can be scored in one importance call (the original makes one
call per event); everything else that already knows its importance is stored at once.

A memory is stored before its vector is encoded: encoding starts at once (batched with the other agents' texts, off
the event loop), and the next retrieval asks for the vectors still missing in the same batch as its focal points, so
they are filled in before anything reads them. The thinking that stored it goes on meanwhile, and so does the town:
a lock-step MiniLM day spent most of its wall time with the main thread waiting for vectors nothing read until later.
A vector is the same whenever it arrives, so runs replay.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from memory import Embedder, MemoryNode, MemoryStream, NodeKind, RetrievalWeights, Retrieved, embed_async

_PROPER_NAME = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b")


def mentioned_names(text: str) -> tuple[str, ...]:
    """Capitalized multi-word names in a text ("Maria Lopez", "Hobbs Cafe"), the keywords of a memory about them."""
    return tuple(dict.fromkeys(_PROPER_NAME.findall(text)))


@dataclass(frozen=True)
class PendingMemory:
    """A memory waiting for its importance score."""

    kind: NodeKind
    description: str
    created: datetime
    subject: str = ""
    predicate: str = ""
    object: str = ""
    keywords: tuple[str, ...] = ()
    partner: str | None = None
    lines: tuple[tuple[str, str], ...] = ()

    def details(self) -> dict:
        """Its fields beyond kind, text and time (event triple, keywords, a chat), as the stream's `add` takes them."""
        return {
            name: getattr(self, name) for name in ("subject", "predicate", "object", "keywords", "partner", "lines")
        }

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "kind": str(self.kind),
            "description": self.description,
            "created": self.created.isoformat(),
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "keywords": list(self.keywords),
            "partner": self.partner,
            "lines": [list(line) for line in self.lines],
        }

    @classmethod
    def from_state(cls, state: dict) -> "PendingMemory":
        """Rebuild from `get_state`."""
        return cls(
            **{
                **state,
                "kind": NodeKind(state["kind"]),
                "created": datetime.fromisoformat(state["created"]),
                "keywords": tuple(state["keywords"]),
                "lines": tuple(tuple(line) for line in state["lines"]),
            }
        )


@dataclass
class AgentMemory:
    """One agent's memories: the stream, its embedder and the queue of memories awaiting importance.

    Attributes:
        stream: The memory stream.
        embedder: Turns texts into vectors (cached by text).
        pending: Memories waiting to be scored, oldest first.
        last_retrieved: The memories retrieved for the agent's latest decision, for the inspector.
        last_focal_points: The focal points (queries) of that retrieval.
        retrievals: How many retrievals so far, so a caller can tell a new one happened.
    """

    stream: MemoryStream
    embedder: Embedder
    pending: list[PendingMemory] = field(default_factory=list)
    last_retrieved: list[Retrieved] = field(default_factory=list)
    last_focal_points: tuple[str, ...] = ()
    retrievals: int = 0
    _recent: tuple[MemoryStream, list[PendingMemory], tuple[int, int, int], set[str]] | None = field(
        default=None, repr=False
    )
    # The newest node of each description: the stream it was read from and how many of its nodes were read.
    _by_text: tuple[MemoryStream, int, dict[str, MemoryNode]] | None = field(default=None, repr=False)
    # When each event description was last queued: the stream and queue it was kept for.
    _queued: tuple[MemoryStream, list[PendingMemory], dict[str, datetime]] | None = field(default=None, repr=False)

    async def add(
        self,
        kind: NodeKind,
        description: str,
        *,
        created: datetime,
        importance: int,
        evidence_ids: Iterable[int] = (),
        **details,
    ) -> MemoryNode:
        """Store a memory whose importance is known; its vector follows (see the module's docstring)."""
        node = self.stream.add(
            kind,
            description,
            created=created,
            importance=importance,
            embedding=None,
            evidence_ids=tuple(evidence_ids),
            **details,
        )
        if not self._start_encoding([node.description], asynchronously=True):
            await self.vectors_arrived()
        return node

    def add_now(self, kind: NodeKind, description: str, *, created: datetime, importance: int, **details) -> MemoryNode:
        """`add` for synchronous code between turns of the event loop (applying decisions); the vector follows."""
        node = self.stream.add(kind, description, created=created, importance=importance, embedding=None, **details)
        if not self._start_encoding([node.description], asynchronously=False):
            self.vectors_now()
        return node

    async def vectors_arrived(self) -> None:
        """Fill in the vectors of the memories stored without them (before the stream is saved)."""
        unfilled = self._unfilled()
        if unfilled:
            self._fill(unfilled, await embed_async(self.embedder, [node.description for node in unfilled]))

    def vectors_now(self) -> None:
        """`vectors_arrived` for synchronous code: blocks until the vectors are there."""
        unfilled = self._unfilled()
        if unfilled:
            self._fill(unfilled, self.embedder.embed([node.description for node in unfilled]))

    @property
    def awaiting_vectors(self) -> bool:
        """Whether memories were stored whose vectors have not been filled in yet."""
        return bool(self.stream.unfilled)

    def _unfilled(self) -> list[MemoryNode]:
        return [self.stream.node(node_id) for node_id in sorted(self.stream.unfilled)]

    def _fill(self, nodes: Sequence[MemoryNode], vectors: Sequence[np.ndarray]) -> None:
        for node, vector in zip(nodes, vectors, strict=True):
            self.stream.fill(node.id, vector)

    def _start_encoding(self, texts: list[str], *, asynchronously: bool) -> bool:
        """Start encoding texts now, so their vectors are cached when asked for; False if it cannot.

        From a coroutine they join this loop tick's batch; from synchronous code they go to the worker. Nothing waits
        here: an error surfaces when the vectors are asked for again (`retrieve`, `vectors_arrived`). An embedder
        that encodes only when called (no batching in the background) cannot, and its caller fills the vectors now.
        """
        start = getattr(self.embedder, "request" if asynchronously else "submit", None)
        if start is None:
            return False
        start(texts).add_done_callback(_seen)
        return True

    def encode_ahead(self, texts: Sequence[str]) -> None:
        """Start encoding texts a coming retrieval will ask for, so that it finds their vectors ready.

        Nothing waits here; an embedder that encodes only when called ignores it.
        """
        self._start_encoding(list(texts), asynchronously=True)

    def queue(self, memory: PendingMemory) -> None:
        """Keep a memory until the next importance batch."""
        self.pending.append(memory)
        if memory.kind == NodeKind.EVENT:
            _note(self._queued_events(), memory.description, memory.created)

    def last_perceived(self, description: str) -> datetime | None:
        """When an event worded so was last remembered (stored or queued), or None if never."""
        node = self.newest_by_text().get(description)
        stored = node.created if node is not None and node.kind == NodeKind.EVENT else None
        queued = self._queued_events().get(description)
        return max(stored, queued) if stored and queued else stored or queued

    def newest_by_text(self) -> dict[str, MemoryNode]:
        """The newest memory of each wording, brought up to date with the nodes stored since the last call.

        The stream only grows, so each node is read once; a replaced stream (a restored checkpoint) is read afresh.
        """
        kept = self._by_text
        if kept is None or kept[0] is not self.stream:
            kept = (self.stream, 0, {})
        stream, read, newest = kept
        for node_id in range(read, len(stream)):
            node = stream.node(node_id)
            newest[node.description] = node
        self._by_text = (stream, len(stream), newest)
        return newest

    def _queued_events(self) -> dict[str, datetime]:
        """When each event description was last queued (read afresh when the stream or the queue is replaced)."""
        kept = self._queued
        if kept is None or kept[0] is not self.stream or kept[1] is not self.pending:
            queued: dict[str, datetime] = {}
            for memory in self.pending:
                if memory.kind == NodeKind.EVENT:
                    _note(queued, memory.description, memory.created)
            kept = self._queued = (self.stream, self.pending, queued)
        return kept[2]

    def scoring_due(self, now: datetime, batch_size: int, batch_minutes: int) -> bool:
        """Whether the queue is full enough, or old enough, to be scored."""
        if not self.pending:
            return False
        return len(self.pending) >= batch_size or now - self.pending[0].created >= timedelta(minutes=batch_minutes)

    async def settle(self, scores: Sequence[int]) -> list[MemoryNode]:
        """Store the queued memories with their scores (one per queued memory, in order)."""
        if len(scores) != len(self.pending):
            raise ValueError(f"{len(scores)} scores for {len(self.pending)} pending memories")
        return await self.store(list(self.pending), scores)

    async def store(self, chosen: Sequence[PendingMemory], scores: Sequence[int]) -> list[MemoryNode]:
        """Store some of the queued memories with their scores and take them off the queue; the others stay queued.

        The queue is read again after the vectors arrive, so a memory queued meanwhile is kept.
        """
        if len(scores) != len(chosen):
            raise ValueError(f"{len(scores)} scores for {len(chosen)} memories")
        chosen = list(chosen)
        nodes = []
        for memory, score in zip(chosen, scores, strict=True):
            nodes.append(
                self.stream.add(
                    memory.kind,
                    memory.description,
                    created=memory.created,
                    importance=int(score),
                    embedding=None,
                    **memory.details(),
                )
            )
        if not self._start_encoding([node.description for node in nodes], asynchronously=True):
            await self.vectors_arrived()
        taken = {id(memory) for memory in chosen}
        self.pending[:] = [memory for memory in self.pending if id(memory) not in taken]
        return nodes

    async def retrieve(
        self,
        queries: Sequence[str],
        *,
        now: datetime,
        k: int,
        weights: RetrievalWeights,
        kinds: Iterable[NodeKind] | None = None,
    ) -> list[list[Retrieved]]:
        """Retrieve for several focal points at once; remembers the results for the inspector."""
        if not queries or len(self.stream) == 0:
            return [[] for _ in queries]
        unfilled = self._unfilled()  # asked for with the focal points: one wait for both
        vectors = await embed_async(self.embedder, [*queries, *(node.description for node in unfilled)])
        self._fill(unfilled, vectors[len(queries) :])
        results = self.stream.retrieve_many(vectors[: len(queries)], now=now, k=k, weights=weights, kinds=kinds)
        self.last_retrieved = [item for result in results for item in result]
        self.last_focal_points = tuple(queries)
        self.retrievals += 1
        return results

    async def recall(self, queries: Sequence[str], *, now: datetime, k: int, weights: RetrievalWeights) -> list[str]:
        """The texts of the best memories for several focal points together: by score, each text once, at most k."""
        retrieved = await self.retrieve(queries, now=now, k=k, weights=weights)
        ranked = sorted((item for result in retrieved for item in result), key=lambda item: -item.score)
        return list(dict.fromkeys(item.node.description for item in ranked))[:k]

    def events_key(self) -> tuple:
        """What `recent_keys` and `last_perceived` answer from: while it stays equal, so do their answers.

        The stream only grows, and the queue, while the stream keeps its size, only grows too (what leaves the queue
        goes into the stream), so the two sizes never come back to an earlier pair.
        """
        return id(self.stream), id(self.pending), len(self.stream), len(self.pending)

    def recent_keys(self, n: int) -> set[str]:
        """Descriptions of the n newest events, stored or pending: what counts as already perceived.

        Asked at every perception; kept until the stream or the queue changes size or is replaced (the stream only
        grows, and what leaves the queue goes into the stream).
        """
        sizes = (len(self.stream), len(self.pending), n)
        kept = self._recent
        if kept is not None and kept[0] is self.stream and kept[1] is self.pending and kept[2] == sizes:
            return kept[3]
        stored = [node.description for node in self.stream.recent(n, kinds=[NodeKind.EVENT])]
        queued = [memory.description for memory in self.pending if memory.kind == NodeKind.EVENT]
        keys = set(stored) | set(queued[-n:])
        self._recent = (self.stream, self.pending, sizes, keys)
        return keys


def _seen(future) -> None:
    """Mark a started encoding's outcome as seen (asyncio would log an unread error; it is raised again when asked)."""
    if not future.cancelled():
        future.exception()


def _note(perceived: dict[str, datetime], description: str, created: datetime) -> None:
    """Keep the later of an event's known time and `created`."""
    known = perceived.get(description)
    if known is None or known < created:
        perceived[description] = created
