"""The stream as the agents use it: adding and validating nodes, reading them back, the reflection counter, state."""

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory import MemoryNode, MemoryStream, NodeKind
from tests.memory.builders import T0, three_nodes, unit


def test_nodes_get_sequential_ids_and_keep_every_field():
    stream = three_nodes()
    chat = stream.add(
        NodeKind.CHAT,
        "conversing about the party",
        created=T0 + timedelta(hours=11),
        importance=4,
        embedding=unit(0, 0, 1),
        subject="Isabella Rodriguez",
        predicate="chat with",
        object="Maria Lopez",
        keywords=["Maria Lopez", "party", ""],
        partner="Maria Lopez",
        lines=[("Isabella Rodriguez", "Come to my party!"), ("Maria Lopez", "I will!")],
    )
    assert chat == MemoryNode(
        id=3,
        kind=NodeKind.CHAT,
        created=T0 + timedelta(hours=11),
        description="conversing about the party",
        subject="Isabella Rodriguez",
        predicate="chat with",
        object="Maria Lopez",
        keywords=frozenset({"Maria Lopez", "party"}),
        importance=4,
        evidence_ids=(),
        depth=0,
        partner="Maria Lopez",
        lines=(("Isabella Rodriguez", "Come to my party!"), ("Maria Lopez", "I will!")),
    )
    assert [node.id for node in stream] == [0, 1, 2, 3]
    assert len(stream) == 4 and 3 in stream and 4 not in stream and -1 not in stream
    assert stream.node(3) is chat
    assert stream.last_accessed(3) == chat.created
    assert np.allclose(stream.embedding(3), unit(0, 0, 1))


def test_embeddings_are_stored_unit_length():
    stream = MemoryStream(dim=4)
    stream.add("event", "long vector", created=T0, importance=1, embedding=np.array([3.0, 4.0, 0, 0]))
    assert stream.embedding(0) == pytest.approx([0.6, 0.8, 0, 0])


def test_a_node_stored_before_its_vector_is_filled_in_before_anything_reads_vectors():
    stream = three_nodes()
    late = stream.add("thought", "vector on its way", created=T0, importance=3, embedding=None)
    assert stream.unfilled == {late.id}
    for read in (
        lambda: stream.retrieve(unit(1, 0), now=T0),
        lambda: stream.embedding(late.id),
        stream.get_state,
    ):
        with pytest.raises(RuntimeError, match=r"1 memories \(first: node 3\) are stored without their vectors"):
            read()
    assert np.allclose(stream.embedding(0), unit(1, 0))  # the others' vectors are there
    stream.fill(late.id, np.array([0, 0, 3.0, 4.0]))
    assert stream.unfilled == set()
    assert stream.embedding(late.id) == pytest.approx([0, 0, 0.6, 0.8])
    assert [item.node.id for item in stream.retrieve(unit(0, 0, 0, 1), now=T0, k=1, weights="0,1,0")] == [late.id]


def test_reflections_are_deeper_than_their_evidence_and_do_not_count_towards_the_next():
    stream = three_nodes()
    assert stream.importance_since_reflection == 2 + 8 + 5
    first = stream.add("reflection", "insight", created=T0, importance=6, embedding=unit(1), evidence_ids=[0, 2])
    deeper = stream.add("reflection", "deeper", created=T0, importance=7, embedding=unit(1), evidence_ids=[1, 3])
    assert (first.depth, deeper.depth, first.evidence_ids) == (1, 2, (0, 2))
    assert stream.importance_since_reflection == 15
    stream.mark_reflected()
    assert stream.importance_since_reflection == 0
    stream.add("event", "new", created=T0, importance=3, embedding=unit(1))
    assert stream.importance_since_reflection == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"importance": 0}, "importance must be 1-10"),
        ({"importance": 11}, "importance must be 1-10"),
        ({"importance": 4.5}, "whole number"),
        ({"embedding": np.ones(5)}, r"shape \(5,\); this stream holds vectors of shape \(4,\)"),
        ({"embedding": np.ones((1, 4))}, r"shape \(1, 4\)"),
        ({"evidence_ids": [1, 99]}, r"evidence ids \[99\] are not in this stream of 3"),
        ({"evidence_ids": [-1]}, r"evidence ids \[-1\]"),
        ({"created": datetime(2023, 2, 13, tzinfo=UTC)}, "naive datetimes"),
        ({"kind": "dream"}, "'dream' is not a valid NodeKind"),
    ],
    ids=["importance-0", "importance-11", "fractional-importance", "short-embedding", "matrix-embedding",
         "missing-evidence", "negative-evidence", "aware-time", "unknown-kind"],
)  # fmt: skip
def test_bad_nodes_are_refused_with_the_reason(changes, message):
    stream = three_nodes()
    arguments = {"kind": "reflection", "created": T0, "importance": 5, "embedding": unit(1), **changes}
    with pytest.raises(ValueError, match=message):
        stream.add(arguments.pop("kind"), "bad", **arguments)
    assert len(stream) == 3


def test_unknown_ids_raise_key_errors():
    stream = three_nodes()
    for read in (stream.node, stream.last_accessed, stream.embedding):
        with pytest.raises(KeyError, match=r"memory -1 is not in this stream \(ids 0-2\)"):
            read(-1)


@pytest.mark.parametrize(
    ("n", "kinds", "expected"),
    [(2, None, [2, 1]), (10, None, [2, 1, 0]), (0, None, []), (5, [NodeKind.EVENT], [1, 0]), (1, ["thought"], [2])],
    ids=["two-newest", "more-than-held", "none", "events-only", "kind-by-name"],
)
def test_recent_is_newest_first(n, kinds, expected):
    assert [node.id for node in three_nodes().recent(n, kinds=kinds)] == expected


def test_about_finds_keywords_case_insensitively_newest_first():
    stream = MemoryStream(dim=4)
    for i, (kind, words) in enumerate([("event", ["Klaus Mueller", "library"]), ("chat", ["klaus mueller"])]):
        stream.add(kind, f"node {i}", created=T0, importance=1, embedding=unit(1), keywords=words)
    assert [node.id for node in stream.about("KLAUS MUELLER")] == [1, 0]
    assert [node.id for node in stream.about("Klaus Mueller", kinds=[NodeKind.EVENT])] == [0]
    assert stream.about("Maria") == []


def test_state_round_trip_is_exact():
    stream = three_nodes()
    stream.add("reflection", "insight", created=T0, importance=6, embedding=unit(1, 2), evidence_ids=[0, 2])
    stream.retrieve(unit(1, 0), now=T0 + timedelta(hours=40, microseconds=7), k=2)
    copy = MemoryStream.from_state(stream.get_state())
    assert list(copy) == list(stream)
    assert (copy.dim, copy.recency_decay, copy.importance_since_reflection) == (4, 0.995, 15)
    for node in stream:
        assert copy.last_accessed(node.id) == stream.last_accessed(node.id)
        assert np.array_equal(copy.embedding(node.id), stream.embedding(node.id))
    query, now = unit(1, 1, 1), T0 + timedelta(hours=50)
    assert copy.retrieve(query, now=now) == stream.retrieve(query, now=now)
    assert [node.id for node in copy.about("nothing")] == []


def test_set_state_restores_in_place():
    stream = three_nodes()
    checkpoint = stream.get_state()
    stream.add("event", "after the checkpoint", created=T0, importance=9, embedding=unit(0, 0, 1), keywords=["x"])
    stream.retrieve(unit(1, 0), now=T0 + timedelta(hours=30), k=3)
    stream.set_state(checkpoint)
    assert list(stream) == list(three_nodes())
    assert stream.importance_since_reflection == 15 and stream.about("x") == []
    assert [stream.last_accessed(node.id) for node in stream] == [node.created for node in stream]


def test_a_state_with_nodes_out_of_order_is_refused():
    state = three_nodes().get_state()
    state["nodes"][1], state["nodes"][2] = state["nodes"][2], state["nodes"][1]
    with pytest.raises(ValueError, match="node 2 found where node 1 belongs"):
        MemoryStream.from_state(state)


def test_columns_grow_past_their_first_capacity():
    stream = MemoryStream(dim=4)
    for i in range(200):
        stream.add("event", f"{i}", created=T0 + timedelta(seconds=i), importance=1 + i % 10, embedding=unit(1, i))
    assert [stream.node(i).description for i in (0, 63, 64, 199)] == ["0", "63", "64", "199"]
    assert np.allclose(stream.embedding(150), unit(1, 150))
    assert stream.last_accessed(199) == T0 + timedelta(seconds=199)
