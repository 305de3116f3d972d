"""Shared builders for the memory tests: small hand-made vectors and a stream whose scores can be worked by hand."""

from datetime import datetime, timedelta

import numpy as np

from memory import MemoryStream

T0 = datetime(2023, 2, 13, 8, 0)


def unit(*values: float, dim: int = 4) -> np.ndarray:
    """A unit vector from its first coordinates."""
    vector = np.zeros(dim, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def three_nodes() -> MemoryStream:
    """Query (1,0,0,0) at T0 + 10 h. Recency: 0.995**10, 1, 0.995**5. Relevance: 1, 0, 0.7071. Importance: 2, 8, 5."""
    stream = MemoryStream(dim=4)
    stream.add("event", "old, relevant, dull", created=T0, importance=2, embedding=unit(1, 0))
    stream.add(
        "event", "new, unrelated, poignant", created=T0 + timedelta(hours=10), importance=8, embedding=unit(0, 1)
    )
    stream.add("thought", "middle", created=T0 + timedelta(hours=5), importance=5, embedding=unit(1, 1))
    return stream
