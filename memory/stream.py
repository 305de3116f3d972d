"""The memory stream: nodes in order, their numbers in numpy columns, and the paper's retrieval over them.

Retrieval scores every candidate at once (memory/retrieval.py): recency = decay ** (simulated hours since last
access), relevance = cosine of embeddings, importance = 1-10. Columns grow by doubling, so adding a node is
amortized O(1).
"""

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import TypedDict, Unpack

import numpy as np

from memory.nodes import MemoryNode, NodeKind
from memory.retrieval import Retrieved, best_first, cosine, normalize
from memory.weights import RetrievalWeights

# Simulated times are stored as seconds since this moment (naive datetimes: the simulation has no time zone).
EPOCH = datetime(2000, 1, 1)
# The paper (section 4.1): recency decays by 0.995 per simulated hour since the memory was last retrieved.
RECENCY_DECAY = 0.995
SECONDS_PER_HOUR = 3600.0
# Rows allocated at first; columns double when full.
INITIAL_CAPACITY = 64
# Importance is on the paper's 1-10 scale.
MIN_IMPORTANCE, MAX_IMPORTANCE = 1, 10
# The paper's weights (all 1) unless the caller chooses others.
PAPER_WEIGHTS = RetrievalWeights.paper()
_KINDS = list(NodeKind)


def seconds(moment: datetime) -> float:
    """Simulated time as seconds since EPOCH.

    Raises:
        ValueError: For a time-zone-aware datetime (simulated time is naive).
    """
    if moment.tzinfo is not None:
        raise ValueError(f"memory times must be naive datetimes (simulated time), got {moment.isoformat()}")
    return (moment - EPOCH) / timedelta(seconds=1)


class RetrievalOptions(TypedDict, total=False):
    """How `retrieve` narrows and scores its one focal point: the options of `retrieve_many`, defaults there."""

    k: int
    weights: RetrievalWeights | str
    kinds: Iterable[NodeKind] | None
    since: datetime | None
    until: datetime | None
    touch: bool


class MemoryStream:
    """An agent's memories, oldest first, with vectorized retrieval.

    Args:
        dim: Length of the embeddings this stream holds.
        recency_decay: Recency factor per simulated hour since last access.
    """

    def __init__(self, dim: int = 384, recency_decay: float = RECENCY_DECAY):
        if dim < 1:
            raise ValueError(f"a memory stream needs embeddings of at least 1 dimension, got dim={dim}")
        if not 0 < recency_decay <= 1:
            raise ValueError(f"recency_decay must be in (0, 1], got {recency_decay}")
        self.dim = dim
        self.recency_decay = recency_decay
        self.importance_since_reflection = 0
        self._nodes: list[MemoryNode] = []
        self._created = np.zeros(INITIAL_CAPACITY)
        self._accessed = np.zeros(INITIAL_CAPACITY)
        self._importance = np.zeros(INITIAL_CAPACITY)
        self._kind = np.zeros(INITIAL_CAPACITY, dtype=np.int8)
        self._embeddings = np.zeros((INITIAL_CAPACITY, dim), dtype=np.float32)
        self._keywords: dict[str, list[int]] = {}
        self._touched: set[int] = set()
        # Nodes stored before their vectors arrived (`add` with embedding=None); retrieval refuses while any remain.
        self._unfilled: set[int] = set()

    # --- adding -------------------------------------------------------------------------------------------------

    def add(
        self,
        kind: NodeKind | str,
        description: str,
        *,
        created: datetime,
        importance: int,
        embedding: np.ndarray | None,
        subject: str = "",
        predicate: str = "",
        object: str = "",
        keywords: Iterable[str] = (),
        evidence_ids: Iterable[int] = (),
        partner: str | None = None,
        lines: Iterable[tuple[str, str]] = (),
    ) -> MemoryNode:
        """Append a memory; its last access starts at its creation time.

        With `embedding=None` the vector comes later through `fill`: a caller can store a memory while its vector is
        still being encoded, as long as it fills it before anything reads vectors (retrieval, `embedding`, state).

        A reflection's depth is one more than its deepest evidence. The importance of every kind but reflections
        adds to `importance_since_reflection` (the paper triggers reflection on what was perceived; counting
        reflections would let reflections trigger themselves).

        Raises:
            ValueError: If the kind is unknown, importance is not a whole number 1-10, the embedding has the wrong
                shape, an evidence id is not in the stream, or `created` carries a time zone.
        """
        kind = NodeKind(kind)
        if isinstance(importance, bool) or importance != int(importance):
            raise ValueError(f"importance must be a whole number 1-10, got {importance!r}")
        if not MIN_IMPORTANCE <= importance <= MAX_IMPORTANCE:
            raise ValueError(f"importance must be 1-10, got {importance}")
        vector = np.zeros(self.dim, dtype=np.float32) if embedding is None else self._unit(embedding)
        evidence = tuple(int(i) for i in evidence_ids)
        missing = [i for i in evidence if i not in self]
        if missing:
            raise ValueError(f"evidence ids {missing} are not in this stream of {len(self)} memories")
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
            lines=tuple((str(speaker), str(text)) for speaker, text in lines),
        )
        self._append(node, vector, seconds(created))
        if embedding is None:
            self._unfilled.add(node.id)
        if kind != NodeKind.REFLECTION:
            self.importance_since_reflection += node.importance
        return node

    def fill(self, node_id: int, embedding: np.ndarray) -> None:
        """Give a node stored without a vector its vector (filling one again with the same vector changes nothing)."""
        self._embeddings[self._check(node_id)] = self._unit(embedding)
        self._unfilled.discard(node_id)

    @property
    def unfilled(self) -> frozenset[int]:
        """Ids of the nodes still waiting for their vectors."""
        return frozenset(self._unfilled)

    def _unit(self, embedding: np.ndarray) -> np.ndarray:
        vector = np.asarray(embedding, dtype=np.float32)
        if vector.shape != (self.dim,):
            raise ValueError(f"embedding has shape {vector.shape}; this stream holds vectors of shape ({self.dim},)")
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector

    def _require_vectors(self) -> None:
        if self._unfilled:
            first = min(self._unfilled)
            raise RuntimeError(
                f"{len(self._unfilled)} memories (first: node {first}) are stored without their vectors; "
                "fill them (MemoryStream.fill) before reading vectors"
            )

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
        for name in ("_created", "_accessed", "_importance", "_kind", "_embeddings"):
            column = getattr(self, name)
            grown = np.zeros((size, *column.shape[1:]), dtype=column.dtype)
            grown[: len(column)] = column
            setattr(self, name, grown)

    # --- reading ------------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._nodes)

    def __iter__(self) -> Iterator[MemoryNode]:
        return iter(self._nodes)

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, int | np.integer) and 0 <= int(node_id) < len(self._nodes)

    def _check(self, node_id: int) -> int:
        if node_id not in self:
            raise KeyError(f"memory {node_id!r} is not in this stream (ids 0-{len(self) - 1})")
        return int(node_id)

    def node(self, node_id: int) -> MemoryNode:
        """A node by id.

        Raises:
            KeyError: If the stream has no such id.
        """
        return self._nodes[self._check(node_id)]

    def embedding(self, node_id: int) -> np.ndarray:
        """A copy of a node's (unit-length) embedding."""
        if node_id in self._unfilled:
            self._require_vectors()
        return self._embeddings[self._check(node_id)].copy()

    def last_accessed(self, node_id: int) -> datetime:
        """When a node was last retrieved (or created, if never)."""
        return EPOCH + timedelta(seconds=float(self._accessed[self._check(node_id)]))

    def recent(self, n: int, kinds: Iterable[NodeKind] | None = None) -> list[MemoryNode]:
        """The n newest nodes (of some kinds), newest first."""
        if n <= 0:
            return []
        if kinds is None:
            return self._nodes[: -n - 1 : -1]
        wanted = {NodeKind(kind) for kind in kinds}
        found = []
        for node in reversed(self._nodes):
            if node.kind in wanted:
                found.append(node)
                if len(found) == n:
                    break
        return found

    def about(self, keyword: str, kinds: Iterable[NodeKind] | None = None) -> list[MemoryNode]:
        """Nodes filed under a keyword (case-insensitive), newest first."""
        wanted = {NodeKind(kind) for kind in kinds} if kinds is not None else None
        ids = self._keywords.get(keyword.lower(), [])
        return [self._nodes[i] for i in reversed(ids) if wanted is None or self._nodes[i].kind in wanted]

    def mark_reflected(self) -> None:
        """Start counting importance towards the next reflection from zero."""
        self.importance_since_reflection = 0

    # --- retrieval ----------------------------------------------------------------------------------------------

    def retrieve(
        self,
        query: np.ndarray,
        *,
        now: datetime,
        **options: Unpack[RetrievalOptions],
    ) -> list[Retrieved]:
        """The k best memories for one focal point, best first (see `retrieve_many`).

        Raises:
            ValueError: If the query is not one vector of the stream's dimension.
        """
        vector = np.asarray(query, dtype=np.float32)
        if vector.shape != (self.dim,):
            raise ValueError(f"query has shape {vector.shape}; this stream holds vectors of shape ({self.dim},)")
        return self.retrieve_many(vector[None, :], now=now, **options)[0]

    def retrieve_many(
        self,
        queries: np.ndarray,
        *,
        now: datetime,
        k: int = 30,
        weights: RetrievalWeights | str = PAPER_WEIGHTS,
        kinds: Iterable[NodeKind] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        touch: bool = True,
    ) -> list[list[Retrieved]]:
        """The k best memories for each focal point (rows of `queries`), best first; equal scores newest first.

        Candidates are the nodes of the given kinds created within [since, until]. Each component is min-max
        normalized over the candidates (all equal: 0.5), and the score is their weighted sum. With `touch`, the
        returned nodes' last access becomes `now` once all focal points are scored (so one focal point does not
        change another's recency).

        Raises:
            ValueError: If `queries` is not a (q, dim) array or the weights are not valid.
            RuntimeError: If a memory is still waiting for its vector (see `add`).
        """
        self._require_vectors()
        weights = RetrievalWeights.parse(weights)
        queries = np.asarray(queries, dtype=np.float32)
        if queries.ndim != 2 or queries.shape[1] != self.dim:
            raise ValueError(f"queries have shape {queries.shape}; expected (number of queries, {self.dim})")
        count = len(self._nodes)
        ids = self._candidates(count, kinds, since, until)
        if len(ids) == 0 or k <= 0 or len(queries) == 0:
            return [[] for _ in queries]
        everything = len(ids) == count
        # Without a filter, slices are views: no copy of the columns on every retrieval.
        rows = slice(0, count) if everything else ids
        # recency = decay ** hours since last access, as exp(hours * ln decay): one pass instead of a power.
        hours = (seconds(now) - self._accessed[rows]) / SECONDS_PER_HOUR
        recency = normalize(np.exp(np.maximum(hours, 0.0, out=hours) * np.log(self.recency_decay)))
        importance = normalize(self._importance[rows])
        # A filter keeping most nodes: one product over all rows then a gather beats copying the rows first.
        if everything or 2 * len(ids) >= count:
            similarity = cosine(self._embeddings[:count], queries)[rows]
        else:
            similarity = cosine(self._embeddings[ids], queries)
        relevance = normalize(similarity)
        base = weights.recency * recency + weights.importance * importance
        scores = base[:, None] + weights.relevance * relevance
        results, chosen = [], []
        for column in range(len(queries)):
            order = best_first(scores[:, column], ids, k)
            chosen.append(ids[order])
            rows_out = zip(
                chosen[-1].tolist(),
                scores[order, column].tolist(),
                recency[order].tolist(),
                relevance[order, column].tolist(),
                importance[order].tolist(),
                strict=True,
            )
            results.append([Retrieved(self._nodes[i], *values) for i, *values in rows_out])
        if touch:
            touched = np.unique(np.concatenate(chosen))
            self._accessed[touched] = seconds(now)
            self._touched.update(touched.tolist())
        return results

    def _candidates(
        self, count: int, kinds: Iterable[NodeKind] | None, since: datetime | None, until: datetime | None
    ) -> np.ndarray:
        if kinds is None and since is None and until is None:
            return np.arange(count)
        mask = np.ones(count, dtype=bool)
        if kinds is not None:
            mask &= np.isin(self._kind[:count], [_KINDS.index(NodeKind(kind)) for kind in kinds])
        if since is not None:
            mask &= self._created[:count] >= seconds(since)
        if until is not None:
            mask &= self._created[:count] <= seconds(until)
        return np.flatnonzero(mask)

    # --- what a store needs ---------------------------------------------------------------------------------------

    def touched(self) -> set[int]:
        """Ids whose last access changed since `forget_touched` last cleared them (a store saves just those)."""
        return set(self._touched)

    def forget_touched(self, node_ids: Iterable[int]) -> None:
        """Clear ids whose new access times have been saved."""
        self._touched.difference_update(node_ids)

    def access_times(self) -> np.ndarray:
        """Every node's last access, in seconds (a copy): what a store rewrites in place as the run goes on."""
        return self._accessed[: len(self._nodes)].copy()

    # --- state --------------------------------------------------------------------------------------------------

    def get_state(self) -> dict:
        """Everything, as plain data and numpy arrays (exact round trip through `from_state`).

        Raises:
            RuntimeError: If a memory is still waiting for its vector (see `add`).
        """
        self._require_vectors()
        count = len(self._nodes)
        return {
            "dim": self.dim,
            "recency_decay": self.recency_decay,
            "nodes": [node.to_dict() for node in self._nodes],
            "accessed": self._accessed[:count].copy(),
            "embeddings": self._embeddings[:count].copy(),
            "importance_since_reflection": self.importance_since_reflection,
        }

    def set_state(self, state: dict) -> None:
        """Replace this stream's contents with a state from `get_state` (in place, for holders of the stream)."""
        self.__dict__.update(MemoryStream.from_state(state).__dict__)

    @classmethod
    def from_state(cls, state: dict) -> "MemoryStream":
        """Rebuild a stream from `get_state`.

        Raises:
            ValueError: If the state is inconsistent (ids out of order, lengths or dimensions that differ).
        """
        stream = cls(dim=int(state["dim"]), recency_decay=float(state["recency_decay"]))
        embeddings = np.asarray(state["embeddings"], dtype=np.float32).reshape(-1, stream.dim)
        for data, accessed, vector in zip(state["nodes"], state["accessed"], embeddings, strict=True):
            node = MemoryNode.from_dict(data)
            if node.id != len(stream):
                raise ValueError(f"memory state: node {node.id} found where node {len(stream)} belongs")
            stream._append(node, vector, float(accessed))
        stream.importance_since_reflection = int(state["importance_since_reflection"])
        return stream
