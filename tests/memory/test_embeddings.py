"""Embedders: deterministic hashing, the text cache, the choice by name."""

import hashlib
import itertools
import re
import subprocess
import sys

import numpy as np
import pytest

from memory import BatchingEmbedder, Embedder, HashingEmbedder, MiniLMEmbedder, is_local_embedder, make_embedder

SENTENCES = ["Isabella is planning a party", "", "the bed is idle", "Klaus is reading"]


class CountingEmbedder:
    """Records each batch it is asked to embed."""

    name = "counting"
    dim = 384

    def __init__(self):
        self.batches = []
        self.hashing = HashingEmbedder()

    def embed(self, texts):
        self.batches.append(list(texts))
        return self.hashing.embed(texts)


def test_hashing_vectors_are_unit_length_float32_and_related_texts_are_closer():
    vectors = HashingEmbedder().embed(SENTENCES)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1, 0, 1, 1], abs=1e-6)  # "" has no words
    party, other = HashingEmbedder().embed(["Isabella is planning a big party", "the stove is burning"])
    assert vectors[0] @ party > vectors[0] @ other


def _hashed_text_by_text(texts, dim=384):
    """The hashing embedder's definition, one text and one feature at a time (what it computed before batching)."""
    vectors = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        words = re.findall(r"[a-z0-9']+", text.lower())
        for feature in words + [f"{a} {b}" for a, b in itertools.pairwise(words)]:
            value = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
            vectors[row, value % dim] += 1.0 if value >> 63 else -1.0
        norm = np.linalg.norm(vectors[row])
        if norm > 0:
            vectors[row] /= norm
    return vectors


def test_hashing_vectors_are_those_of_the_text_by_text_definition_to_the_bit():
    rng = np.random.default_rng(0)
    words = [
        "the",
        "a",
        "is",
        "at",
        "of",
        "Isabella",
        "Rodriguez",
        "cafe",
        "party's",
        "3pm",
        "bed",
        "idle",
        "2023",
        "Hobbs",
        "x",
    ]
    texts = [*SENTENCES, "the the the the", "Hobbs Cafe: Hobbs Cafe, Hobbs Cafe!"]
    texts += [" ".join(rng.choice(words, size=rng.integers(1, 60))) for _ in range(200)]
    embedder = HashingEmbedder()
    embedder.FEATURES_KEPT = 50  # the store of features emptied several times within the batch
    assert embedder.embed(texts).tobytes() == _hashed_text_by_text(texts).tobytes()
    assert embedder.embed(texts[::-1]).tobytes() == _hashed_text_by_text(texts[::-1]).tobytes()
    assert HashingEmbedder(dim=64).embed(texts).tobytes() == _hashed_text_by_text(texts, dim=64).tobytes()


def test_hashing_is_the_same_in_another_process_with_another_hash_seed():
    code = (
        "import sys; from memory import HashingEmbedder; "
        f"sys.stdout.buffer.write(HashingEmbedder(dim=64).embed({SENTENCES!r}).tobytes())"
    )
    outputs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, check=True, env={"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1] == HashingEmbedder(dim=64).embed(SENTENCES).tobytes()


def test_the_cache_embeds_only_misses_in_one_batch_and_returns_the_same_vectors():
    inner = CountingEmbedder()
    cached = BatchingEmbedder(inner)
    first = cached.embed(["the bed is idle", "Klaus is reading", "the bed is idle"])
    again = cached.embed(["Klaus is reading", "Maria is streaming", "the bed is idle"])
    assert inner.batches == [["the bed is idle", "Klaus is reading"], ["Maria is streaming"]]
    assert (cached.misses, cached.hits) == (3, 3)
    assert np.array_equal(again, HashingEmbedder().embed(["Klaus is reading", "Maria is streaming", "the bed is idle"]))
    assert np.array_equal(first[0], again[2])
    assert cached.embed([]).shape == (0, 384)


def test_the_cache_forgets_the_least_recently_used_texts_past_its_size():
    inner = CountingEmbedder()
    cached = BatchingEmbedder(inner, max_items=2)
    batch = cached.embed(["a", "b", "c"])  # a batch larger than the cache still comes back whole
    assert np.array_equal(batch, HashingEmbedder().embed(["a", "b", "c"]))
    cached.embed(["b"])  # b is now the most recently used; c the least
    cached.embed(["a"])  # a is embedded again and pushes c out
    cached.embed(["b", "c"])
    assert inner.batches == [["a", "b", "c"], ["a"], ["c"]]


def test_embedders_follow_the_protocol():
    for embedder in (HashingEmbedder(), BatchingEmbedder(HashingEmbedder()), MiniLMEmbedder()):
        assert isinstance(embedder, Embedder)
        assert (embedder.dim, isinstance(embedder.name, str)) == (384, True)


def test_make_embedder_by_name_is_shared_and_cached():
    hashing = make_embedder("hashing")
    assert hashing is make_embedder("hashing")
    assert isinstance(hashing, BatchingEmbedder) and hashing.name == "hashing"


def test_an_unknown_embedder_lists_the_names():
    with pytest.raises(ValueError, match="unknown embedder 'bert-huge'; choose one of: minilm, hashing"):
        make_embedder("bert-huge")


@pytest.mark.parametrize(
    ("name", "local"),
    [
        ("minilm", True),
        ("hashing", True),
        ("openai/text-embedding-3-small", False),
        ("ollama/nomic-embed-text", False),
        ("MiniLM", False),
        ("bert-huge", False),
    ],
    ids=["minilm", "hashing", "openai", "ollama", "wrong-case", "unknown"],
)
def test_which_embedder_names_are_local(name, local):
    assert is_local_embedder(name) is local
