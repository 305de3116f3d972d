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
