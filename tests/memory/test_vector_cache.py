"""Vectors kept on disk: a later run or another process encodes only the texts it has not seen, same vectors."""

import asyncio

import numpy as np
import pytest

from memory import BatchingEmbedder, HashingEmbedder, embed_async
from memory.vector_cache import VectorCache, VectorCacheError


class CountingEmbedder:
    """Hashing vectors; counts the texts it was asked to encode."""

    name = "counting"
    dim = 384

    def __init__(self):
        self.encoded: list[str] = []
        self.hashing = HashingEmbedder()

    def embed(self, texts):
        self.encoded += list(texts)
        return self.hashing.embed(texts)


TEXTS = ["Isabella Rodriguez is opening Hobbs Cafe", "the piano is idle", "Klaus Mueller is reading"]


def test_a_second_embedder_on_the_same_file_encodes_nothing_and_gets_the_same_vectors(tmp_path):
    path = tmp_path / "embeddings.sqlite"
    first = CountingEmbedder()
    fresh = BatchingEmbedder(first, disk=VectorCache(path)).embed(TEXTS)
    second = CountingEmbedder()
    later = BatchingEmbedder(second, disk=VectorCache(path))
    kept = asyncio.run(embed_async(later, [*TEXTS, "a new text"]))
    assert first.encoded == TEXTS and second.encoded == ["a new text"]
    np.testing.assert_array_equal(kept[:3], fresh)
    assert later.disk_hits == 3


def test_vectors_are_kept_by_embedder(tmp_path):
    path = tmp_path / "embeddings.sqlite"
    BatchingEmbedder(CountingEmbedder(), disk=VectorCache(path)).embed(TEXTS)
    other = CountingEmbedder()
    other.name = "another"
    BatchingEmbedder(other, disk=VectorCache(path)).embed(TEXTS)
    assert other.encoded == TEXTS


def test_a_file_that_is_not_a_cache_is_named_with_the_fix(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a database" * 100)
    with pytest.raises(VectorCacheError, match=r"notes\.sqlite: cannot keep embeddings there .*--embedding-cache"):
        VectorCache(path)
