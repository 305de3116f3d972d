import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memory import CachedEmbedder, HashingEmbedder, MemoryStore, MemoryStream, StoreError, make_embedder

T0 = datetime(2023, 2, 13, 8, 0)
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"


def filled_stream(embedder, n=6):
    stream = MemoryStream(dim=embedder.dim)
    for i in range(n):
        text = f"memory number {i}"
        stream.add(
            "event", text, created=T0 + timedelta(minutes=i), importance=1 + i % 10, embedding=embedder.embed([text])[0]
        )
    lines = [("Maria Lopez", "hi"), ("Klaus Mueller", "hello")]
    talk = embedder.embed(["a talk"])[0]
    stream.add("chat", "a talk", created=T0, importance=4, embedding=talk, partner="Klaus Mueller", lines=lines)
    stream.add(
        "reflection", "insight", created=T0, importance=7, embedding=embedder.embed(["insight"])[0], evidence_ids=[0, 6]
    )
    return stream


def test_save_load_round_trip_is_exact_and_appends(tmp_path):
    embedder = HashingEmbedder()
    stream = filled_stream(embedder)
    store = MemoryStore(tmp_path / "memory.sqlite", embedder.name, embedder.dim)
    store.save("Maria Lopez", stream)
    stream.retrieve(embedder.embed(["memory"])[0], now=T0 + timedelta(hours=5), k=2)
    stream.add(
        "thought", "later", created=T0 + timedelta(hours=6), importance=3, embedding=embedder.embed(["later"])[0]
    )
    store.save("Maria Lopez", stream)
    store.save("Maria Lopez", stream)
    store.close()
    loaded = MemoryStore(tmp_path / "memory.sqlite", embedder.name, embedder.dim).load("Maria Lopez")
    assert list(loaded) == list(stream)
    assert loaded.importance_since_reflection == stream.importance_since_reflection
    for node in stream:
        assert loaded.last_accessed(node.id) == stream.last_accessed(node.id)
        assert np.array_equal(loaded.embedding(node.id), stream.embedding(node.id))
    with sqlite3.connect(tmp_path / "memory.sqlite") as db:
        assert db.execute("select count(*) from nodes").fetchone()[0] == len(stream)


def test_truncate_and_partial_load(tmp_path):
    embedder = HashingEmbedder()
    store = MemoryStore(tmp_path / "m.sqlite")
    store.save("A", filled_stream(embedder))
    assert len(store.load("A", length=3)) == 3
    store.truncate({"A": 2})
    assert len(store.load("A")) == 2


def test_a_corrupt_or_foreign_store_names_the_file(tmp_path):
    path = tmp_path / "memory.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=str(path)):
        MemoryStore(path)
    good = tmp_path / "good.sqlite"
    MemoryStore(good, "hashing", 384).close()
    with pytest.raises(StoreError, match="embedded with hashing"):
        MemoryStore(good, "minilm", 512)


def test_cached_embedder_embeds_each_text_once():
    cached = CachedEmbedder(HashingEmbedder())
    first = cached.embed(["the bed is idle", "Klaus is reading", "the bed is idle"])
    again = cached.embed(["the bed is idle"])
    assert cached.misses == 2 and cached.hits == 2
    assert np.array_equal(first[0], again[0])


def test_hashing_is_deterministic_and_normalized():
    vectors = HashingEmbedder().embed(["Isabella is planning a party", ""])
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0)
    assert np.array_equal(vectors, HashingEmbedder().embed(["Isabella is planning a party", ""]))


def test_unknown_embedder():
    with pytest.raises(ValueError, match="choose one of: minilm, hashing"):
        make_embedder("bert-huge")


def test_minilm_ranks_related_sentences_higher():
    embedder = make_embedder("minilm")
    query, related, unrelated = embedder.embed(
        ["Valentine's Day party", "Isabella is planning a party at Hobbs Cafe", "Klaus is writing a research paper"]
    )
    assert query @ related > query @ unrelated + 0.1


@pytest.mark.skipif(not REFERENCE.is_file(), reason="reference vectors not generated")
def test_minilm_matches_sentence_transformers():
    reference = json.loads(REFERENCE.read_text())
    ours = make_embedder("minilm").embed(reference["sentences"])
    assert np.abs(ours - np.array(reference["vectors"], dtype=np.float32)).max() < 1e-5
