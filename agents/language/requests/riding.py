"""Importance riding along: a request the agent makes anyway also rates the memories waiting for a score.

The original asks once per memory, and a separate importance call per batch still cost a third of our calls. The
persona is already in the request the agent is about to send, so the queued memories and one line of instructions
are appended to it and its answer gains a "scores" list. The inner request keeps its own prompt, kind (routing,
accounting) and answer; a model that leaves the scores out costs nothing but the ride: the memories stay queued.
"""

import logging
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, Field, create_model

from agents.language.quoting import render
from agents.language.request import AnswerError, Request, load_template
from agents.language.requests.common import numbered, parse_json
from agents.language.requests.scoring import MOST_MEMORIES, ImportanceRequest
from agents.language.schemas import count, number

logger = logging.getLogger(__name__)
# Answer tokens a rating adds (digits, comma, space), and the key and brackets once.
TOKENS_PER_SCORE, TOKENS_OF_SCORES = 3, 10


class _Scores(BaseModel):
    scores: list[int] = Field(min_length=1)


@cache
def scored_model(inner: type[BaseModel]) -> type[BaseModel]:
    """The inner answer model with a "scores" list added."""
    return create_model(f"{inner.__name__}Scored", __base__=inner, scores=(list[int], Field(min_length=1)))


@dataclass(frozen=True)
class Scored[A]:
    """The inner request's answer, and the queued memories' importance (None if the model gave no usable ratings)."""

    answer: A
    scores: tuple[int, ...] | None


@dataclass(frozen=True)
class ScoredRequest(Request[Scored]):
    """Another request of the agent's, also rating its queued memories 1-10.

    Its `kind` is the inner request's (set when built), so routes, caches and accounts treat it as that request.
    """

    kind = "scored"
    template = "importance_rider.txt"

    inner: Request
    name: str
    memories: tuple[str, ...]

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "kind", self.inner.kind)
        object.__setattr__(self, "answer_model", scored_model(self.inner.answer_model))
        object.__setattr__(self, "temperature", self.inner.temperature)
        extra = TOKENS_OF_SCORES + TOKENS_PER_SCORE * len(self.memories)
        object.__setattr__(self, "max_tokens", self.inner.max_tokens + extra)

    def validate(self) -> None:
        if isinstance(self.inner, ImportanceRequest | ScoredRequest) or self.inner.answer_model is None:
            raise ValueError(f"scored: {self.inner.kind} requests cannot carry importance ratings")
        if not 1 <= len(self.memories) <= MOST_MEMORIES:
            raise ValueError(f"scored: 1 to {MOST_MEMORIES} memories per request, got {len(self.memories)}")
        if any(not memory.strip() for memory in self.memories):
            raise ValueError("scored: a memory is empty")

    def answer_schema(self) -> dict[str, Any]:
        """The inner request's schema, with a list of ratings 1-10 (one per memory: the prompt says, `parse` checks)."""
        schema = self.inner.answer_schema()
        scores = count({"type": "array", "items": {}}, 1, MOST_MEMORIES)
        number(scores["items"], 1, 10)
        schema["properties"]["scores"] = scores
        schema["required"] = [*schema.get("required", []), "scores"]
        return schema

    def fields(self) -> dict[str, str]:
        return {"name": self.name, "memories": numbered(self.memories), "count": str(len(self.memories))}

    def messages(self) -> list[dict[str, str]]:
        """The inner request's messages (persona first, for prefix caching), the ratings asked for at the end."""
        system, user = self.inner.messages()
        rider = render(load_template(self.template), self.fields())
        return [system, {**user, "content": f"{user['content']}\n\n{rider}"}]

    def parse(self, text: str) -> Scored:
        answer = self.inner.parse(text)
        try:
            scores = parse_json(text, _Scores).scores
        except AnswerError as error:
            logger.info(
                "%s: no importance ratings came with the answer (%s); the memories stay queued", self.kind, error
            )
            return Scored(answer, None)
        if len(scores) != len(self.memories):
            logger.info("%s: %d ratings for %d memories; they stay queued", self.kind, len(scores), len(self.memories))
            return Scored(answer, None)
        return Scored(answer, tuple(min(10, max(1, score)) for score in scores))

    def fallback(self) -> Scored:
        return Scored(self.inner.fallback(), None)
