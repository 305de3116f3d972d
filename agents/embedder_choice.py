"""Choosing the embedding function by name: the memory layer's own, or a litellm model through the gateway."""

from functools import cache

from memory import BatchingEmbedder, Embedder, make_embedder

LOCAL_EMBEDDERS = ("minilm", "hashing")


@cache
def make_agent_embedder(name: str, api_base: str | None = None) -> Embedder:
    """One shared, text-cached embedder per name: "minilm", "hashing", or a litellm model ("ollama/nomic-embed-text").

    Raises:
        ValueError: If the name is neither a local embedder nor a "provider/model" name.
    """
    if name in LOCAL_EMBEDDERS:
        return make_embedder(name)
    if "/" not in name:
        raise ValueError(
            f"unknown embedder {name!r}: use one of {', '.join(LOCAL_EMBEDDERS)} or a litellm embedding model "
            "name such as 'openai/text-embedding-3-small'"
        )
    from agents.language.embeddings import LiteLLMEmbedder  # noqa: PLC0415 - litellm loads only when asked for

    return BatchingEmbedder(LiteLLMEmbedder(name, api_base=api_base))
