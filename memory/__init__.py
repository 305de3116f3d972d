"""The memory stream: nodes, importance/recency/relevance retrieval, embeddings and storage.

This layer knows nothing of language models: importance scores and an embedding function are handed to it.
"""

from memory.embeddings import CachedEmbedder, Embedder, HashingEmbedder, make_embedder
from memory.minilm import MiniLMEmbedder
from memory.nodes import MemoryNode, NodeKind
from memory.retrieval import Retrieved
from memory.store import MemoryStore, StoreError
from memory.stream import RECENCY_DECAY, MemoryStream
from memory.weights import RetrievalWeights

__all__ = [
    "RECENCY_DECAY",
    "CachedEmbedder",
    "Embedder",
    "HashingEmbedder",
    "MemoryNode",
    "MemoryStore",
    "MemoryStream",
    "MiniLMEmbedder",
    "NodeKind",
    "RetrievalWeights",
    "Retrieved",
    "StoreError",
    "make_embedder",
]
