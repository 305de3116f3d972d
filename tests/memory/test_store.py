"""The SQLite store: exact round trips, appending without duplicates, and clear errors for damaged or foreign files."""

import sqlite3
from datetime import timedelta

import numpy as np
import pytest

from memory import HashingEmbedder, MemoryStore, MemoryStream, StoreError
from tests.memory.builders import T0

EMBEDDER = HashingEmbedder()


def filled_stream(n: int = 6) -> MemoryStream:
    stream = MemoryStream(dim=EMBEDDER.dim)
    vectors = EMBEDDER.embed([f"memory number {i}" for i in range(n)] + ["a talk", "insight"])
    for i in range(n):
        stream.add(
            "event",
            f"memory number {i}",
            created=T0 + timedelta(minutes=i, microseconds=i),
            importance=1 + i % 10,
            embedding=vectors[i],
            subject="Maria Lopez",
            predicate="is",
            object=f"doing {i}",
            keywords=["Maria Lopez", f"thing {i}"],
        )
    lines = [("Maria Lopez", "héllo ☕"), ("Klaus Mueller", "hello")]
    stream.add("chat", "a talk", created=T0, importance=4, embedding=vectors[n], partner="Klaus Mueller", lines=lines)
    stream.add("reflection", "insight", created=T0, importance=7, embedding=vectors[n + 1], evidence_ids=[0, n])
    return stream


def assert_same(loaded: MemoryStream, stream: MemoryStream) -> None:
    assert list(loaded) == list(stream)  # ids, kinds, times, texts, triples, keywords, scores, evidence, chat lines
    assert loaded.importance_since_reflection == stream.importance_since_reflection
    assert (loaded.dim, loaded.recency_decay) == (stream.dim, stream.recency_decay)
    for node in stream:
        assert loaded.last_accessed(node.id) == stream.last_accessed(node.id)
        assert np.array_equal(loaded.embedding(node.id), stream.embedding(node.id))


def node_rows(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("select count(*) from nodes").fetchone()[0]


def test_round_trip_is_exact_and_saves_only_append(tmp_path):
    path = tmp_path / "memory.sqlite"
    stream = filled_stream()
    with MemoryStore(path, EMBEDDER.name, EMBEDDER.dim) as store:
        store.save("Maria Lopez", stream)
        stream.retrieve(EMBEDDER.embed(["memory"])[0], now=T0 + timedelta(hours=5), k=2)  # changes 2 access times
        stream.add(
            "thought", "later", created=T0 + timedelta(hours=6), importance=3, embedding=EMBEDDER.embed(["x"])[0]
        )
        stream.mark_reflected()
        store.save("Maria Lopez", stream)
        store.save("Maria Lopez", stream)  # nothing new: no duplicate rows
        store.save("Klaus Mueller", filled_stream(2))
    assert node_rows(path) == len(stream) + 4
    with MemoryStore(path, EMBEDDER.name, EMBEDDER.dim) as store:
        assert store.agents() == ["Klaus Mueller", "Maria Lopez"]
        assert store.embedder == "hashing" and store.dim == 384
        loaded = store.load("Maria Lopez")
    assert_same(loaded, stream)


def test_a_loaded_stream_keeps_appending(tmp_path):
    path = tmp_path / "memory.sqlite"
    with MemoryStore(path) as store:
        store.save("A", filled_stream())
    with MemoryStore(path) as store:
        stream = store.load("A")
        stream.retrieve(EMBEDDER.embed(["insight"])[0], now=T0 + timedelta(days=1), k=1)
        stream.add("event", "new", created=T0 + timedelta(days=1), importance=2, embedding=EMBEDDER.embed(["n"])[0])
        store.save("A", stream)
        assert_same(store.load("A"), stream)
    assert node_rows(path) == len(stream)


def test_truncate_and_partial_load_for_checkpoints(tmp_path):
    with MemoryStore(tmp_path / "m.sqlite") as store:
        full = filled_stream()
        store.save("A", full)
        assert [node.id for node in store.load("A", length=3)] == [0, 1, 2]
        store.truncate({"A": 2})
        assert store.stored_length("A") == 2
        assert list(store.load("A")) == list(full)[:2]


def test_saving_a_stream_shorter_than_the_stored_one_is_refused(tmp_path):
    with MemoryStore(tmp_path / "m.sqlite") as store:
        store.save("A", filled_stream(6))
        with pytest.raises(StoreError, match="holds 8 memories of 'A' but the stream to save has 4"):
            store.save("A", filled_stream(2))


def test_unknown_agent(tmp_path):
    with MemoryStore(tmp_path / "m.sqlite") as store:
        store.save("A", filled_stream(1))
        with pytest.raises(StoreError, match=r"no memories stored for 'B' \(stored: A\)"):
            store.load("B")


def test_another_embedder_or_dimension_is_refused(tmp_path):
    path = tmp_path / "memory.sqlite"
    MemoryStore(path, "hashing", 384).close()
    with pytest.raises(StoreError, match=r"embedded with hashing \(384 dimensions\), not minilm \(384\)"):
        MemoryStore(path, "minilm", 384)
    with MemoryStore(path) as store:
        with pytest.raises(StoreError, match="holds 384-dimensional embeddings; the stream of 'A' has 16"):
            store.save("A", MemoryStream(dim=16))
        with pytest.raises(StoreError, match=r"not hashing \(16\)"):
            store.check("hashing", 16)


def test_the_dimension_of_the_first_save_is_recorded(tmp_path):
    path = tmp_path / "memory.sqlite"
    with MemoryStore(path) as store:
        store.save("A", MemoryStream(dim=16))
    with pytest.raises(StoreError, match=r"\(16 dimensions\), not minilm \(384\)"):
        MemoryStore(path, "minilm", 384)


def test_several_agents_are_saved_together_or_not_at_all(tmp_path):
    path = tmp_path / "memory.sqlite"
    maria, klaus = filled_stream(3), filled_stream(5)
    with MemoryStore(path) as store:
        with pytest.raises(StoreError, match=r"holds 384-dimensional embeddings; the stream of .B. has 16"):
            store.save_all({"A": maria, "B": MemoryStream(dim=16)})
        assert (node_rows(path), store.agents()) == (0, [])
        store.save_all({"Maria Lopez": maria, "Klaus Mueller": klaus})
    with MemoryStore(path) as store:
        assert_same(store.load("Maria Lopez"), maria)
        assert_same(store.load("Klaus Mueller"), klaus)


def damage(path, how: str) -> None:
    data = path.read_bytes()
    if how == "half":
        path.write_bytes(data[: len(data) // 2])
    elif how == "header-only":
        path.write_bytes(data[:50])
    elif how == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif how == "scrambled-pages":
        middle = len(data) // 2
        path.write_bytes(data[:4096] + bytes(reversed(data[4096:middle])) + data[middle:])


@pytest.mark.parametrize("how", ["half", "header-only", "garbage", "scrambled-pages"])
def test_a_damaged_file_gives_a_store_error_naming_it(tmp_path, how):
    path = tmp_path / "memory.sqlite"
    with MemoryStore(path, EMBEDDER.name, EMBEDDER.dim) as store:
        for agent in ("Maria Lopez", "Klaus Mueller"):
            store.save(agent, filled_stream(200))
    damage(path, how)
    # Opening or loading, whichever meets the damage first, names the file.
    with pytest.raises(StoreError, match=str(path)), MemoryStore(path) as store:
        for agent in store.agents():
            store.load(agent)


def test_the_tables_are_made_all_at_once_or_not_at_all(tmp_path):
    # A run killed while its store made its tables left `meta` alone, and resume refused the folder as damaged.
    path = tmp_path / "memory.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("create table other (x)")
        db.execute("create index nodes on other (x)")  # the last table cannot be made
    with pytest.raises(StoreError, match="already an index named nodes"):
        MemoryStore(path)
    with sqlite3.connect(path) as db:
        assert {row[0] for row in db.execute("select name from sqlite_master")} == {"other", "nodes"}
