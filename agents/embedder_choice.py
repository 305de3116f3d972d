"""Choosing the embedding function by name: the memory layer's own, or a litellm model through the gateway."""

from functools import cache

from memory import LOCAL_EMBEDDERS, BatchingEmbedder, Embedder, is_local_embedder, make_embedder
from memory.vector_cache import VectorCache


@cache
def make_agent_embedder(name: str, api_base: str | None = None, disk_path: str | None = None) -> Embedder:
    """One shared, text-cached embedder per name: "minilm", "hashing", or a litellm model ("ollama/nomic-embed-text").

    With `disk_path` its vectors are also kept in that file for later runs (memory/vector_cache.py).

    Raises:
        ValueError: If the name is neither a local embedder nor a "provider/model" name, or the file cannot keep
            vectors.
    """
    if is_local_embedder(name):
        return make_embedder(name, disk_path)
    if "/" not in name:
        raise ValueError(
            f"unknown embedder {name!r}: use one of {', '.join(LOCAL_EMBEDDERS)} or a litellm embedding model "
            "name such as 'openai/text-embedding-3-small'"
        )
    from agents.language.embeddings import LiteLLMEmbedder  # noqa: PLC0415 - litellm loads only when asked for

    disk = VectorCache(disk_path) if disk_path else None
    return BatchingEmbedder(LiteLLMEmbedder(name, api_base=api_base), disk=disk)


def forget_embedders() -> None:
    """Drop the shared embedders and the vectors they hold in memory: the next model starts cold, as a new process."""
    make_agent_embedder.cache_clear()
    make_embedder.cache_clear()
