from datetime import datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory import HashingEmbedder, MemoryStream, NodeKind, RetrievalWeights

T0 = datetime(2023, 2, 13, 8, 0)


def unit(*values):
    vector = np.zeros(4, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def three_node_stream():
    """Hand-computable: query (1,0,0,0); nodes differ in age, relevance and importance."""
    stream = MemoryStream(dim=4)
    stream.add("event", "old, relevant, dull", created=T0, importance=2, embedding=unit(1, 0))
    stream.add(
        "event", "recent, unrelated, poignant", created=T0 + timedelta(hours=10), importance=8, embedding=unit(0, 1)
    )
    stream.add("thought", "middle", created=T0 + timedelta(hours=5), importance=5, embedding=unit(1, 1))
    return stream


def expected_scores(weights):
    now = T0 + timedelta(hours=10)
    recency = np.array([0.995**10, 1.0, 0.995**5])
    relevance = np.array([1.0, 0.0, 1 / np.sqrt(2)])
    importance = np.array([2, 8, 5])

    def norm(values):
        return (values - values.min()) / (values.max() - values.min())

    score = (
        weights.recency * norm(recency) + weights.relevance * norm(relevance) + weights.importance * norm(importance)
    )
    return now, score


@pytest.mark.parametrize(
    "weights",
    [
        RetrievalWeights.paper(),
        RetrievalWeights.original(),
        RetrievalWeights(0, 1, 1),
        RetrievalWeights(1, 0, 1),
        RetrievalWeights(1, 1, 0),
    ],
    ids=["paper", "original", "no-recency", "no-relevance", "no-importance"],
)
def test_score_matches_hand_computation(weights):
    stream = three_node_stream()
    now, expected = expected_scores(weights)
    results = stream.retrieve(unit(1, 0), now=now, k=3, weights=weights, touch=False)
    got = {item.node.id: item.score for item in results}
    assert got == pytest.approx(dict(enumerate(expected)), abs=1e-5)
    assert [item.node.id for item in results] == sorted(got, key=lambda i: -got[i])


def test_recency_is_per_simulated_hour_since_last_access():
    stream = three_node_stream()
    now = T0 + timedelta(hours=10)
    results = stream.retrieve(unit(1, 0), now=now, k=3, weights=RetrievalWeights(1, 0, 0), touch=False)
    raw = {0: 0.995**10, 1: 1.0, 2: 0.995**5}
    low, high = min(raw.values()), max(raw.values())
    for item in results:
        assert item.recency == pytest.approx((raw[item.node.id] - low) / (high - low), abs=1e-6)


def test_retrieval_touches_last_access():
    stream = three_node_stream()
    later = T0 + timedelta(hours=30)
    (top,) = stream.retrieve(unit(1, 0), now=later, k=1)
    assert stream.last_accessed(top.node.id) == later
    untouched = [node for node in stream if node.id != top.node.id]
    assert all(stream.last_accessed(node.id) == node.created for node in untouched)


def test_empty_one_node_and_ties():
    stream = MemoryStream(dim=4)
    assert stream.retrieve(unit(1), now=T0, k=5) == []
    stream.add("event", "only", created=T0, importance=3, embedding=unit(1))
    (only,) = stream.retrieve(unit(1), now=T0, k=5)
    assert (only.recency, only.relevance, only.importance) == (0.5, 0.5, 0.5)
    stream.add("event", "twin", created=T0, importance=3, embedding=unit(1))
    assert [item.node.id for item in stream.retrieve(unit(1), now=T0, k=2)] == [1, 0]  # ties: newest first


def test_filters_recent_about_and_reflection_counter():
    stream = three_node_stream()
    assert [n.id for n in stream.recent(2)] == [2, 1]
    assert [n.id for n in stream.recent(5, kinds=[NodeKind.THOUGHT])] == [2]
    only_thoughts = stream.retrieve(unit(1, 0), now=T0, k=5, kinds=[NodeKind.THOUGHT])
    assert [item.node.id for item in only_thoughts] == [2]
    assert stream.importance_since_reflection == 15
    reflection = stream.add(
        "reflection", "insight", created=T0, importance=6, embedding=unit(1), evidence_ids=[0, 2], keywords=["Klaus"]
    )
    assert reflection.depth == 1 and stream.importance_since_reflection == 15
    assert stream.about("klaus") == [reflection]
    deeper = stream.add("reflection", "deeper", created=T0, importance=6, embedding=unit(1), evidence_ids=[3])
    assert deeper.depth == 2
    stream.mark_reflected()
    assert stream.importance_since_reflection == 0
    with pytest.raises(ValueError, match=r"evidence ids \[99\]"):
        stream.add("reflection", "bad", created=T0, importance=5, embedding=unit(1), evidence_ids=[99])
    with pytest.raises(ValueError, match="importance must be 1-10"):
        stream.add("event", "bad", created=T0, importance=11, embedding=unit(1))


def test_state_round_trip_is_exact():
    stream = three_node_stream()
    stream.retrieve(unit(1, 0), now=T0 + timedelta(hours=40), k=1)
    copy = MemoryStream.from_state(stream.get_state())
    assert list(copy) == list(stream)
    for node in stream:
        assert copy.last_accessed(node.id) == stream.last_accessed(node.id)
        assert np.array_equal(copy.embedding(node.id), stream.embedding(node.id))


@pytest.mark.parametrize("text", ["paper", "original", "0.5,3,2"], ids=["paper", "original", "values"])
def test_weights_by_name_or_value(text):
    assert RetrievalWeights.parse(text) in {RetrievalWeights.paper(), RetrievalWeights.original()}


def test_bad_weights():
    with pytest.raises(ValueError, match="three numbers"):
        RetrievalWeights.parse("heavy")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 10), st.integers(0, 500), st.text(min_size=1, max_size=30)), min_size=1, max_size=40
    ),
    st.integers(1, 50),
)
def test_retrieval_invariants(rows, k):
    embedder = HashingEmbedder(dim=16)
    stream = MemoryStream(dim=16)
    for importance, hours, text in rows:
        stream.add(
            "event",
            text,
            created=T0 + timedelta(hours=hours),
            importance=importance,
            embedding=embedder.embed([text])[0],
        )
    now = T0 + timedelta(hours=600)
    results = stream.retrieve(embedder.embed(["query"])[0], now=now, k=k)
    assert len(results) == min(k, len(rows)) and len(stream) == len(rows)
    scores = [item.score for item in results]
    assert scores == sorted(scores, reverse=True)
    for item in results:
        assert 0 <= item.recency <= 1 and 0 <= item.relevance <= 1 and 0 <= item.importance <= 1
        assert 0 <= item.score <= 3 + 1e-6
        assert stream.last_accessed(item.node.id) == now
