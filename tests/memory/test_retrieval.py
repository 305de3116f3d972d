"""The paper's retrieval score on hand-worked examples: presets, zero weights, per-hour recency, ties, filters."""

from datetime import timedelta

import numpy as np
import pytest

from memory import MemoryStream, NodeKind, RetrievalWeights
from tests.memory.builders import T0, three_nodes, unit

NOW = T0 + timedelta(hours=10)
# Worked by hand from three_nodes(): normalized recency 0, 1, (0.995**5 - 0.995**10) / (1 - 0.995**10) = 0.493735;
# relevance 1, 0, 0.707107; importance 0, 1, 0.5. Score = weighted sum.
SCORE_CASES = [
    (RetrievalWeights.paper(), {0: 1.0, 1: 2.0, 2: 1.700841}, [1, 2, 0]),
    (RetrievalWeights.original(), {0: 3.0, 1: 2.5, 2: 3.368188}, [2, 0, 1]),
    (RetrievalWeights(0, 1, 1), {0: 1.0, 1: 1.0, 2: 1.207107}, [2, 1, 0]),  # 0 and 1 tie: newest first
    (RetrievalWeights(1, 0, 1), {0: 0.0, 1: 2.0, 2: 0.993735}, [1, 2, 0]),
    (RetrievalWeights(1, 1, 0), {0: 1.0, 1: 1.0, 2: 1.200841}, [2, 1, 0]),
]


@pytest.mark.parametrize(
    ("weights", "scores", "order"),
    SCORE_CASES,
    ids=["paper", "original", "no-recency", "no-relevance", "no-importance"],
)
def test_score_matches_the_hand_worked_example(weights, scores, order):
    results = three_nodes().retrieve(unit(1, 0), now=NOW, k=3, weights=weights, touch=False)
    assert [item.node.id for item in results] == order
    assert {item.node.id: item.score for item in results} == pytest.approx(scores, abs=1e-6)


def test_components_are_reported_normalized_for_the_inspector():
    results = three_nodes().retrieve(unit(1, 0), now=NOW, k=3, touch=False)
    by_id = {item.node.id: (item.recency, item.relevance, item.importance) for item in results}
    assert by_id[0] == pytest.approx((0.0, 1.0, 0.0))
    assert by_id[1] == pytest.approx((1.0, 0.0, 1.0))
    assert by_id[2] == pytest.approx((0.493735, 0.707107, 0.5), abs=1e-6)


@pytest.mark.parametrize(
    ("decay", "expected"),
    [(0.995, 0.995**10 / (1 + 0.995**10)), (0.9, 0.9**10 / (1 + 0.9**10))],
    ids=["paper-0.995", "configured-0.9"],
)
def test_recency_decays_per_simulated_hour_since_last_access(decay, expected):
    # Accessed 0, 10 and 20 hours ago: raw recency 1, decay**10, decay**20. After min-max the middle one is
    # decay**10 / (1 + decay**10) (0.4875 for 0.995); the original code's rank-based recency would give 0.5.
    stream = MemoryStream(dim=4, recency_decay=decay)
    for hours in (0, 10, 20):
        stream.add("event", f"{hours}", created=NOW - timedelta(hours=hours), importance=1, embedding=unit(1))
    results = stream.retrieve(unit(1), now=NOW, k=3, weights=RetrievalWeights(1, 0, 0), touch=False)
    recency = {item.node.description: item.recency for item in results}
    assert recency == pytest.approx({"0": 1.0, "10": expected, "20": 0.0}, abs=1e-9)


def test_retrieval_resets_recency_of_what_it_returns():
    stream = MemoryStream(dim=4)
    stream.add("event", "a", created=T0, importance=1, embedding=unit(1, 0))
    stream.add("event", "b", created=T0 + timedelta(hours=1), importance=1, embedding=unit(0, 1))
    (top,) = stream.retrieve(unit(1, 0), now=T0 + timedelta(hours=10), k=1, weights=RetrievalWeights(0, 1, 0))
    assert top.node.description == "a"
    assert stream.last_accessed(0) == T0 + timedelta(hours=10)
    assert stream.last_accessed(1) == T0 + timedelta(hours=1)  # not returned: untouched
    later = stream.retrieve(unit(1, 1), now=T0 + timedelta(hours=20), k=2, weights=RetrievalWeights(1, 0, 0))
    assert [item.node.description for item in later] == ["a", "b"]  # a was accessed 9 hours after b


def test_touch_false_leaves_access_times():
    stream = three_nodes()
    stream.retrieve(unit(1, 0), now=NOW + timedelta(hours=5), k=3, touch=False)
    assert [stream.last_accessed(node.id) for node in stream] == [node.created for node in stream]


@pytest.mark.parametrize(
    ("nodes", "k", "expected"),
    [(0, 5, []), (1, 5, [0]), (3, 0, []), (3, 1, [2]), (3, 10, [2, 1, 0])],
    ids=["empty", "one-node", "k-zero", "k-one", "k-above-size"],
)
def test_sizes_and_ties(nodes, k, expected):
    # Identical nodes: every component ties, so the newest come first, also at the top-k cut.
    stream = MemoryStream(dim=4)
    for i in range(nodes):
        stream.add("event", f"same {i}", created=T0, importance=3, embedding=unit(1))
    results = stream.retrieve(unit(1), now=T0, k=k)
    assert [item.node.id for item in results] == expected
    assert all((item.recency, item.relevance, item.importance) == (0.5, 0.5, 0.5) for item in results)


def test_a_zero_query_makes_relevance_neutral():
    results = three_nodes().retrieve(np.zeros(4), now=NOW, k=3, touch=False)
    assert {item.relevance for item in results} == {0.5}


def test_filters_by_kind_and_creation_time():
    stream = three_nodes()
    only_thoughts = stream.retrieve(unit(1, 0), now=NOW, kinds=[NodeKind.THOUGHT], touch=False)
    assert [item.node.id for item in only_thoughts] == [2]
    window = stream.retrieve(
        unit(1, 0), now=NOW, since=T0 + timedelta(hours=1), until=T0 + timedelta(hours=10), touch=False
    )
    assert sorted(item.node.id for item in window) == [1, 2]
    # Normalization is over the candidates only: node 1 is now the least relevant of two, node 2 the most.
    assert {item.node.id: item.relevance for item in window} == {1: 0.0, 2: 1.0}
    assert stream.retrieve(unit(1, 0), now=NOW, kinds=[NodeKind.REFLECTION]) == []


def test_many_focal_points_score_like_one_at_a_time_and_touch_after_all():
    stream = three_nodes()
    queries = np.stack([unit(1, 0), unit(0, 1), unit(1, 1), unit(0, 0, 1), unit(1, 0, 1), unit(0, 1, 1)])
    later = NOW + timedelta(hours=3)
    alone = [stream.retrieve(query, now=later, k=2, touch=False) for query in queries]
    together = stream.retrieve_many(queries, now=later, k=2)
    # One focal point's touch does not change the next one's recency within the same call.
    assert together == alone
    returned = {item.node.id for result in together for item in result}
    assert all(stream.last_accessed(i) == later for i in returned)


@pytest.mark.parametrize(
    "query",
    [np.ones(3), np.ones((2, 4)), np.ones(8)],
    ids=["too-short", "two-queries-to-retrieve", "too-long"],
)
def test_a_query_of_the_wrong_shape_is_refused(query):
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        three_nodes().retrieve(query, now=NOW)


def test_wrong_shaped_queries_for_many_are_refused():
    with pytest.raises(ValueError, match=r"expected \(number of queries, 4\)"):
        three_nodes().retrieve_many(np.ones(4), now=NOW)


def test_large_streams_use_the_same_formula():
    # Enough rows for several BLAS blocks and a filter that keeps most nodes (one product, then a gather).
    rng = np.random.default_rng(7)
    stream = MemoryStream(dim=384)
    vectors = rng.normal(size=(3000, 384)).astype(np.float32)
    for i, vector in enumerate(vectors):
        kind = NodeKind.THOUGHT if i % 5 == 0 else NodeKind.EVENT
        stream.add(kind, f"m{i}", created=T0 + timedelta(minutes=i), importance=1 + i % 10, embedding=vector)
    queries = rng.normal(size=(6, 384)).astype(np.float32)
    now = T0 + timedelta(days=3)
    for kinds in (None, [NodeKind.EVENT], [NodeKind.THOUGHT]):
        ids = np.array([n.id for n in stream if kinds is None or n.kind in kinds])
        unit_rows = vectors[ids] / np.linalg.norm(vectors[ids], axis=1, keepdims=True)
        unit_queries = queries / np.linalg.norm(queries, axis=1, keepdims=True)
        hours = (now - T0).total_seconds() / 3600 - ids / 60
        recency, importance = 0.995**hours, 1 + ids % 10
        for column, result in enumerate(stream.retrieve_many(queries, now=now, k=30, kinds=kinds, touch=False)):
            relevance = unit_rows @ unit_queries[column]
            expected = sum((v - v.min()) / (v.max() - v.min()) for v in (recency, relevance, importance))
            best = np.argsort(-expected, kind="stable")[:30]
            assert [item.node.id for item in result] == ids[best].tolist()
            assert [item.score for item in result] == pytest.approx(expected[best], abs=1e-5)
