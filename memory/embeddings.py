"""Embedding functions handed to the memory stream: a protocol, a fast hashing one, a cache, and the choice by name.

The memory layer never calls a language model; an embedder backed by a model API is built in agents/ and handed
in as any other object with `name`, `dim` and `embed`.
"""

import hashlib
import itertools
import re
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors: (n, dim) float32, each L2-normalized."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch of texts."""
        ...


_WORD = re.compile(r"[a-z0-9']+")


class HashingEmbedder:
    """Feature hashing of words and word pairs: deterministic across processes, no model, for fast tests."""

    name = "hashing"

    def __init__(self, dim: int = 384):
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text as a normalized bag of hashed words and adjacent word pairs."""
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            for feature in words + [f"{a} {b}" for a, b in itertools.pairwise(words)]:
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                vectors[row, value % self.dim] += 1.0 if value >> 63 else -1.0
            norm = np.linalg.norm(vectors[row])
            if norm > 0:
                vectors[row] /= norm
        return vectors


class CachedEmbedder:
    """Caches another embedder's vectors by text (most event texts recur: "the bed is idle"), batching misses.

    Args:
        inner: The embedder that computes vectors for texts not seen before.
        max_items: Texts kept; the least recently used go first.
    """

    def __init__(self, inner: Embedder, max_items: int = 100_000):
        if max_items < 1:
            raise ValueError(f"max_items must be at least 1, got {max_items}")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_items = max_items
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for the texts, computing those not cached in one batch of distinct texts."""
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        fresh = dict(zip(missing, self.inner.embed(missing), strict=True)) if missing else {}
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in fresh:
                result[row] = fresh[text]
            else:
                result[row] = self._cache[text]
                self._cache.move_to_end(text)
        self._cache.update(fresh)
        while len(self._cache) > self.max_items:
            self._cache.popitem(last=False)
        return result


LOCAL_EMBEDDERS = ("minilm", "hashing")


@cache
def make_embedder(name: str) -> Embedder:
    """A shared, text-cached embedder by name: "minilm" (default) or "hashing".

    Raises:
        ValueError: For another name.
    """
    if name == "minilm":
        from memory.minilm import MiniLMEmbedder  # noqa: PLC0415 - loads tokenizers only when chosen

        return CachedEmbedder(MiniLMEmbedder())
    if name == "hashing":
        return CachedEmbedder(HashingEmbedder())
    raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(LOCAL_EMBEDDERS)}")
