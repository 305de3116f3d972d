"""Importance: how poignant memories are, several scored in one call (the original asks once per memory)."""

from dataclasses import dataclass

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json, persona_fields
from agents.language.schemas import count, number, prop

# The original's fail-safe importance.
FALLBACK_IMPORTANCE = 4
MOST_MEMORIES = 40


class _Scores(BaseModel):
    scores: list[int] = Field(min_length=1)


@dataclass(frozen=True)
class ImportanceRequest(Request[tuple[int, ...]]):
    """Rate each memory 1 (mundane: brushing teeth) to 10 (poignant: a break-up, an invitation from a friend)."""

    kind = "importance"
    template = "importance.txt"
    temperature = 0.0
    max_tokens = 200
    answer_model = _Scores

    identity: Identity
    memories: tuple[str, ...]

    def validate(self) -> None:
        if not 1 <= len(self.memories) <= MOST_MEMORIES:
            raise ValueError(f"importance: 1 to {MOST_MEMORIES} memories per request, got {len(self.memories)}")
        if any(not memory.strip() for memory in self.memories):
            raise ValueError("importance: a memory is empty")

    def constrain(self, schema: dict) -> None:
        scores = count(prop(schema, "scores"), 1, MOST_MEMORIES)  # how many: in the prompt, checked by `parse`
        number(scores["items"], 1, 10)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "memories": numbered(self.memories),
            "count": str(len(self.memories)),
        }

    def parse(self, text: str) -> tuple[int, ...]:
        scores = parse_json(text, _Scores).scores
        if len(scores) != len(self.memories):
            raise AnswerError(f"expected {len(self.memories)} scores, got {len(scores)}")
        return tuple(min(10, max(1, score)) for score in scores)

    def fallback(self) -> tuple[int, ...]:
        return (FALLBACK_IMPORTANCE,) * len(self.memories)
