"""Embedding functions handed to the memory stream: a protocol, a fast hashing one, and the shared one by name.

The memory layer never calls a language model; an embedder backed by a model API is built in agents/ and handed
in as any other object with `name`, `dim` and `embed`.
"""

import hashlib
import itertools
import re
from collections.abc import Sequence
from functools import cache
from typing import Protocol, runtime_checkable

import numpy as np

from memory.batching import BatchingEmbedder
from memory.vector_cache import VectorCache


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
    """Feature hashing of words and word pairs: deterministic across processes, no model, for fast tests.

    Each feature's bucket and sign are kept (the same words and names recur in thousands of memories), and a batch's
    counts are added in one numpy call: the 1,000-person town's first step embedded 2,000 memories in 0.55 s, text
    by text and bucket by bucket. The vectors are the same to the bit: the counts are whole numbers, exact in float32
    in any order, and so is the sum of their squares under the square root.
    """

    name = "hashing"
    # Features whose bucket and sign are kept; the store is emptied when full (~200 bytes a feature).
    FEATURES_KEPT = 200_000

    def __init__(self, dim: int = 384):
        self.dim = dim
        self._features: dict[str, int] = {}  # a feature's bucket, or ~bucket (negative) for a feature counted -1

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text as a normalized bag of hashed words and adjacent word pairs."""
        known = self._features
        codes: list[int] = []
        counts: list[int] = []
        for text in texts:
            words = _WORD.findall(text.lower())
            features = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
            codes += [known[feature] if feature in known else self._hashed(feature) for feature in features]
            counts.append(len(features))
        signed = np.array(codes, dtype=np.intp)
        added = signed >= 0
        rows = np.repeat(np.arange(len(texts)), counts)
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(vectors, (rows, np.where(added, signed, ~signed)), np.where(added, np.float32(1), np.float32(-1)))
        norms = np.sqrt(np.einsum("ij,ij->i", vectors, vectors))[:, None]
        np.divide(vectors, norms, out=vectors, where=norms > 0)
        return vectors

    def _hashed(self, feature: str) -> int:
        """A feature's code (its bucket, ~bucket if it counts -1), from its hash, kept for its next use."""
        if len(self._features) >= self.FEATURES_KEPT:
            self._features.clear()
        value = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
        bucket = value % self.dim
        code = self._features[feature] = bucket if value >> 63 else ~bucket
        return code


# The embedders this layer builds itself, by name; any other name is a model's, built above and handed in.
LOCAL_EMBEDDERS = ("minilm", "hashing")
# The class the "minilm" embedder's child process runs ("module:Class"); a benchmark may name another encoder of the
# same vectors (benchmarks/bench_day.py minilm-onnx).
MINILM_ENCODER = "memory.minilm:MiniLMEmbedder"
# MiniLM's encoder processes: a batch asked for while one encodes starts in the other (memory/encoder_process.py).
MINILM_PROCESSES = 2


def is_local_embedder(name: str) -> bool:
    """Whether an embedder name is one this layer builds itself (no model, no server): the one place that decides it.

    It is a question about the name alone, so it lives here, below everything that chooses an embedder.
    """
    return name in LOCAL_EMBEDDERS


@cache
def make_embedder(name: str, disk_path: str | None = None) -> Embedder:
    """A shared, text-cached embedder by name: "minilm" (default) or "hashing", encoding off the event loop in batches.

    With `disk_path`, vectors are also kept in that file (memory/vector_cache.py) for later runs and other processes.

    Raises:
        ValueError: For another name.
        VectorCacheError: If `disk_path` cannot hold a vector cache.
    """
    if not is_local_embedder(name):
        raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(LOCAL_EMBEDDERS)}")
    disk = VectorCache(disk_path) if disk_path else None
    if name == "minilm":
        from memory.encoder_process import ProcessPoolEmbedder  # noqa: PLC0415 - only minilm runs in child processes
        from memory.minilm import MiniLMEmbedder  # noqa: PLC0415 - loads tokenizers only when chosen

        encoder = ProcessPoolEmbedder(
            MINILM_ENCODER, MiniLMEmbedder.name, MiniLMEmbedder.dim, MiniLMEmbedder.cache_key, MINILM_PROCESSES
        )
        return BatchingEmbedder(encoder, disk=disk)
    return BatchingEmbedder(HashingEmbedder(), offload=False, disk=disk)
