"""The memory stream: nodes in order, their numbers in numpy columns, and the paper's retrieval.

Retrieval scores every candidate at once: recency = decay ** (simulated hours since last access), relevance =
cosine of embeddings, importance = 1-10; each min-max normalized over the candidates (0.5 when all are equal),
then weighted and summed. Columns grow by doubling, so adding a node is amortized O(1).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from memory.nodes import MemoryNode, NodeKind
from memory.weights import RetrievalWeights

EPOCH = datetime(2000, 1, 1)
# The paper: recency decays by 0.995 per simulated hour since the memory was last retrieved.
RECENCY_DECAY = 0.995
_KINDS = list(NodeKind)
INITIAL_CAPACITY = 64


def seconds(moment: datetime) -> float:
    """Simulated time as seconds since 2000-01-01 (naive times; no time zone ever enters)."""
    return (moment - EPOCH).total_seconds()


@dataclass(frozen=True)
class Retrieved:
    """A retrieved memory with its score and the three normalized components, for the memory inspector."""

    node: MemoryNode
    score: float
    recency: float
    relevance: float
    importance: float


class MemoryStream:
    """An agent's memories, oldest first, with vectorized retrieval."""

    def __init__(self, dim: int = 384, recency_decay: float = RECENCY_DECAY):
        self.dim = dim
        self.recency_decay = recency_decay
        self._nodes: list[MemoryNode] = []
        self._created = np.zeros(INITIAL_CAPACITY)
        self._accessed = np.zeros(INITIAL_CAPACITY)
        self._importance = np.zeros(INITIAL_CAPACITY)
        self._kind = np.zeros(INITIAL_CAPACITY, dtype=np.int8)
        self._embeddings = np.zeros((INITIAL_CAPACITY, dim), dtype=np.float32)
        self._keywords: dict[str, list[int]] = {}
        self.importance_since_reflection = 0
        self._touched: set[int] = set()

    # --- adding -------------------------------------------------------------------------------------------------

    def add(
        self,
        kind: NodeKind,
        description: str,
        *,
        created: datetime,
        importance: int,
        embedding: np.ndarray,
        subject: str = "",
        predicate: str = "",
        object: str = "",
        keywords: Iterable[str] = (),
        evidence_ids: Iterable[int] = (),
        partner: str | None = None,
        lines: Iterable[tuple[str, str]] = (),
    ) -> MemoryNode:
        """Append a memory.

        Raises:
            ValueError: If importance is outside 1-10, the embedding has the wrong shape, or evidence is missing.
        """
        kind = NodeKind(kind)
        if not 1 <= int(importance) <= 10:
            raise ValueError(f"importance must be 1-10, got {importance}")
        vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
        if vector.shape != (self.dim,):
            raise ValueError(f"embedding has {vector.shape[0]} dimensions; this stream holds {self.dim}")
        norm = float(np.linalg.norm(vector))
        vector = vector / norm if norm > 0 else vector
        evidence = tuple(int(i) for i in evidence_ids)
        missing = [i for i in evidence if not 0 <= i < len(self._nodes)]
        if missing:
            raise ValueError(f"evidence ids {missing} are not in this stream")
        depth = 1 + max((self._nodes[i].depth for i in evidence), default=0) if kind == NodeKind.REFLECTION else 0
        node = MemoryNode(
            id=len(self._nodes),
            kind=kind,
            created=created,
            description=description,
            subject=subject,
            predicate=predicate,
            object=object,
            keywords=frozenset(word for word in keywords if word),
            importance=int(importance),
            evidence_ids=evidence,
            depth=depth,
            partner=partner,
            lines=tuple((str(a), str(b)) for a, b in lines),
        )
        self._append(node, vector, seconds(created))
        if kind != NodeKind.REFLECTION:
            self.importance_since_reflection += node.importance
        return node

    def _append(self, node: MemoryNode, vector: np.ndarray, accessed: float) -> None:
        index = node.id
        if index == len(self._created):
            self._grow()
        self._embeddings[index] = vector
        self._created[index] = seconds(node.created)
        self._accessed[index] = accessed
        self._importance[index] = node.importance
        self._kind[index] = _KINDS.index(node.kind)
        self._nodes.append(node)
        for word in node.keywords:
            self._keywords.setdefault(word.lower(), []).append(index)

    def _grow(self) -> None:
        size = 2 * len(self._created)
        for name in ("_created", "_accessed", "_importance", "_kind"):
            column = getattr(self, name)
            grown = np.zeros(size, dtype=column.dtype)
            grown[: len(column)] = column
            setattr(self, name, grown)
        grown = np.zeros((size, self.dim), dtype=np.float32)
        grown[: len(self._embeddings)] = self._embeddings
        self._embeddings = grown

    # --- reading ------------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._nodes)

    def __iter__(self) -> Iterator[MemoryNode]:
        return iter(self._nodes)

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, int | np.integer) and 0 <= int(node_id) < len(self._nodes)

    def node(self, node_id: int) -> MemoryNode:
        """A node by id."""
        return self._nodes[node_id]

    def embedding(self, node_id: int) -> np.ndarray:
        """A node's (normalized) embedding."""
        return self._embeddings[node_id].copy()

    def last_accessed(self, node_id: int) -> datetime:
        """When a node was last retrieved (or created)."""
        return EPOCH + timedelta(seconds=float(self._accessed[node_id]))

    def recent(self, n: int, kinds: Iterable[NodeKind] | None = None) -> list[MemoryNode]:
        """The n newest nodes (of some kinds), newest first."""
        if kinds is None:
            return self._nodes[::-1][:n]
        wanted = set(kinds)
        found = []
        for node in reversed(self._nodes):
            if node.kind in wanted:
                found.append(node)
                if len(found) == n:
                    break
        return found

    def about(self, keyword: str, kinds: Iterable[NodeKind] | None = None) -> list[MemoryNode]:
        """Nodes filed under a keyword (case-insensitive), newest first."""
        wanted = set(kinds) if kinds is not None else None
        ids = self._keywords.get(keyword.lower(), [])
        return [self._nodes[i] for i in reversed(ids) if wanted is None or self._nodes[i].kind in wanted]

    def mark_reflected(self) -> None:
        """Start counting importance towards the next reflection from zero."""
        self.importance_since_reflection = 0

    # --- retrieval ----------------------------------------------------------------------------------------------

    def retrieve(self, query: np.ndarray, *, now: datetime, k: int = 30, **options) -> list[Retrieved]:
        """The k best memories for one focal point (see `retrieve_many`)."""
        return self.retrieve_many(np.asarray(query).reshape(1, -1), now=now, k=k, **options)[0]

    def retrieve_many(
        self,
        queries: np.ndarray,
        *,
        now: datetime,
        k: int = 30,
        weights: RetrievalWeights | None = None,
        kinds: Iterable[NodeKind] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        touch: bool = True,
    ) -> list[list[Retrieved]]:
        """The k best memories for each focal point, best first (ties: newest first).

        Retrieved memories' last access becomes `now` (after all focal points are scored).
        """
        weights = weights or RetrievalWeights.paper()
        queries = np.asarray(queries, dtype=np.float32).reshape(-1, self.dim)
        count = len(self._nodes)
        mask = np.ones(count, dtype=bool)
        if kinds is not None:
            mask &= np.isin(self._kind[:count], [_KINDS.index(NodeKind(kind)) for kind in kinds])
        if since is not None:
            mask &= self._created[:count] >= seconds(since)
        if until is not None:
            mask &= self._created[:count] <= seconds(until)
        ids = np.flatnonzero(mask)
        if len(ids) == 0 or k <= 0:
            return [[] for _ in queries]
        # Without a filter, slices are views: no copy of the embedding matrix on every retrieval.
        rows = slice(0, count) if len(ids) == count else ids
        hours = np.maximum(0.0, (seconds(now) - self._accessed[rows]) / 3600.0)
        recency = _normalize(self.recency_decay**hours)
        importance = _normalize(self._importance[rows])
        norms = np.linalg.norm(queries, axis=1, keepdims=True)
        relevance = _normalize(self._embeddings[rows] @ (queries / np.where(norms > 0, norms, 1)).T)
        scores = (
            weights.recency * recency[:, None]
            + weights.relevance * relevance
            + weights.importance * importance[:, None]
        )
        results = []
        chosen: set[int] = set()
        for column in range(len(queries)):
            column_scores = scores[:, column]
            best = np.argpartition(-column_scores, k - 1)[:k] if k < len(ids) else np.arange(len(ids))
            order = best[np.lexsort((-ids[best], -column_scores[best]))]
            results.append(
                [
                    Retrieved(
                        node=self._nodes[int(ids[i])],
                        score=float(scores[i, column]),
                        recency=float(recency[i]),
                        relevance=float(relevance[i, column]),
                        importance=float(importance[i]),
                    )
                    for i in order
                ]
            )
            chosen.update(int(ids[i]) for i in order)
        if touch and chosen:
            touched = np.fromiter(chosen, dtype=np.int64)
            self._accessed[touched] = seconds(now)
            self._touched.update(chosen)
        return results

    def pop_touched(self) -> set[int]:
        """Ids whose last access changed since the last call (a store saves just those)."""
        touched, self._touched = self._touched, set()
        return touched

    # --- state --------------------------------------------------------------------------------------------------

    def get_state(self) -> dict:
        """Everything, as plain data and numpy arrays (exact round trip)."""
        count = len(self._nodes)
        return {
            "dim": self.dim,
            "recency_decay": self.recency_decay,
            "nodes": [node.to_dict() for node in self._nodes],
            "accessed": self._accessed[:count].copy(),
            "embeddings": self._embeddings[:count].copy(),
            "importance_since_reflection": self.importance_since_reflection,
        }

    @classmethod
    def from_state(cls, state: dict) -> "MemoryStream":
        """Rebuild a stream from `get_state`; a state cut to its first n nodes gives the stream's first n."""
        stream = cls(dim=state["dim"], recency_decay=state["recency_decay"])
        for data, accessed, vector in zip(state["nodes"], state["accessed"], state["embeddings"], strict=True):
            stream._append(MemoryNode.from_dict(data), np.asarray(vector, dtype=np.float32), float(accessed))
        stream.importance_since_reflection = state["importance_since_reflection"]
        return stream


def _normalize(values: np.ndarray) -> np.ndarray:
    """Min-max normalize to [0, 1] along the first axis; 0.5 where all values are equal."""
    low, high = values.min(axis=0), values.max(axis=0)
    span = high - low
    safe = np.where(span > 0, span, 1.0)
    return np.where(span > 0, (values - low) / safe, 0.5)
