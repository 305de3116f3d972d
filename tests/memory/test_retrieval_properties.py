"""Retrieval invariants over random streams (hypothesis): scores in range, top-k sorted and truly the best,
access times updated, no node lost or changed."""

from datetime import timedelta

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memory import MemoryStream, NodeKind, RetrievalWeights
from tests.memory.builders import T0

DIM = 8
weights_strategy = st.tuples(*[st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])] * 3).map(lambda w: RetrievalWeights(*w))
node_strategy = st.tuples(
    st.sampled_from(list(NodeKind)),
    st.integers(1, 10),
    st.integers(0, 300),  # hours after T0
    st.integers(0, 2**32 - 1),  # seed of the embedding
)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.lists(node_strategy, min_size=0, max_size=40),
    k=st.integers(1, 50),
    weights=weights_strategy,
    query_count=st.integers(1, 6),
    kinds=st.none() | st.sets(st.sampled_from(list(NodeKind)), min_size=1),
)
def test_retrieval_invariants(nodes, k, weights, query_count, kinds):
    stream = MemoryStream(dim=DIM)
    for kind, importance, hours, seed in nodes:
        vector = np.random.default_rng(seed).normal(size=DIM)
        stream.add(
            kind, f"{kind} {hours}", created=T0 + timedelta(hours=hours), importance=importance, embedding=vector
        )
    before = list(stream)
    accessed = [stream.last_accessed(node.id) for node in stream]
    queries = np.random.default_rng(len(nodes)).normal(size=(query_count, DIM))
    now = T0 + timedelta(hours=400)
    full = stream.retrieve_many(queries, now=now, k=len(stream) + 1, weights=weights, kinds=kinds, touch=False)
    results = stream.retrieve_many(queries, now=now, k=k, weights=weights, kinds=kinds)

    candidates = [node for node in before if kinds is None or node.kind in kinds]
    top = sum((weights.recency, weights.relevance, weights.importance))
    for result, everything in zip(results, full, strict=True):
        assert len(result) == min(k, len(candidates))
        assert sorted(item.node.id for item in everything) == [node.id for node in candidates]
        assert result == everything[: len(result)]  # the true top k, in the same order
        keys = [(item.score, item.node.id) for item in result]
        assert keys == sorted(keys, reverse=True)  # best first, equal scores newest first
        for item in result:
            assert 0 <= item.recency <= 1 and 0 <= item.relevance <= 1 and 0 <= item.importance <= 1
            weighted = weights.recency * item.recency + weights.relevance * item.relevance
            assert abs(item.score - weighted - weights.importance * item.importance) < 1e-5
            assert -1e-6 <= item.score <= top + 1e-6
    returned = {item.node.id for result in results for item in result}
    assert list(stream) == before  # no node lost, added or changed
    for node in stream:
        assert stream.last_accessed(node.id) == (now if node.id in returned else accessed[node.id])
