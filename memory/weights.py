"""The weights of the retrieval score, by name or by value."""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class RetrievalWeights:
    """Weights of recency, relevance and importance in the retrieval score."""

    recency: float
    relevance: float
    importance: float

    def __post_init__(self) -> None:
        values = (self.recency, self.relevance, self.importance)
        if not all(math.isfinite(value) and value >= 0 for value in values):
            raise ValueError(f"retrieval weights must be finite and not negative: {self}")

    @classmethod
    def paper(cls) -> "RetrievalWeights":
        """The paper's weights: all 1 (section 4.1)."""
        return cls(1.0, 1.0, 1.0)

    @classmethod
    def original(cls) -> "RetrievalWeights":
        """The original code's weights: 0.5, 3, 2 (retrieve.py's gw)."""
        return cls(0.5, 3.0, 2.0)

    @classmethod
    def parse(cls, text: "str | RetrievalWeights") -> "RetrievalWeights":
        """Weights from a name ("paper", "original") or three numbers "recency,relevance,importance".

        Raises:
            ValueError: For anything else.
        """
        if isinstance(text, RetrievalWeights):
            return text
        presets = {"paper": cls.paper, "original": cls.original}
        if text in presets:
            return presets[text]()
        try:
            values = [float(part) for part in str(text).split(",")]
        except ValueError:
            values = []
        if len(values) != 3:
            raise ValueError(
                f"retrieval weights {text!r}: use 'paper' (1,1,1), 'original' (0.5,3,2) or three numbers like 1,2,1"
            )
        return cls(*values)
