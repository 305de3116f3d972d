"""The memory stream: nodes, importance/recency/relevance retrieval, embeddings and storage.

This layer knows nothing of language models: importance scores and an embedding function are handed to it.
"""

__all__: list[str] = []
