"""The memory stream: nodes, importance/recency/relevance retrieval, embeddings and storage.

This layer knows nothing of language models: importance scores and an embedding function are handed to it.
"""

from memory.batching import BatchingEmbedder, embed_async
from memory.embeddings import LOCAL_EMBEDDERS, Embedder, HashingEmbedder, is_local_embedder, make_embedder
from memory.minilm import MiniLMEmbedder
from memory.nodes import MemoryNode, NodeKind
from memory.retrieval import Retrieved
from memory.store import MemoryStore, StoreError
from memory.stream import RECENCY_DECAY, MemoryStream
from memory.weights import RetrievalWeights

__all__ = [
    "LOCAL_EMBEDDERS",
    "RECENCY_DECAY",
    "BatchingEmbedder",
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
    "embed_async",
    "is_local_embedder",
    "make_embedder",
]
