"""The evaluation's requests asked several at a time: what the items share (persona, memories, judge's rules) sent once.

An evaluation asks each agent five questions of a category under each condition, and the judge ranks each question's
answers: asked one at a time, every request repeats the instructions and the persona (about 1,200 of an interview's
1,750 tokens), and questions of one category share most of the memories retrieved for them (a third of the memories
shown are distinct on the 25-agent town). A batch sends the shared parts once and asks one answer per item, in a list.
Each item keeps its own meaning: `items()` gives the single requests it stands for (what each item is shown), and an
answer parses as each item's answer would alone.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json, persona_fields
from agents.language.requests.evaluation import (
    LONGEST_ANSWER,
    FactCheckRequest,
    InterviewRequest,
    RankRequest,
    _bound_reason,
)
from agents.language.schemas import count, prop, text

# Items in one request: the paper's battery asks five questions a category. A batch this size keeps an answer's
# longest list short (5 answers of 400 tokens) and each item near its question in the prompt.
ITEMS_PER_REQUEST = 5


class _Items(BaseModel):
    """One answer object per item, in the items' order, each as the item's own request would parse it."""

    answers: list[dict[str, Any]] = Field(min_length=1)


class _InterviewAnswer(BaseModel):
    answer: str = Field(min_length=1)


class InterviewAnswers(BaseModel):
    """An answer in character per question."""

    answers: list[_InterviewAnswer] = Field(min_length=1)


class _Check(BaseModel):
    reason: str = ""
    shows: bool


class Checks(BaseModel):
    """Whether each answer shows its fact."""

    answers: list[_Check] = Field(min_length=1)


class _Ranking(BaseModel):
    reason: str = ""
    ranking: list[list[str]] = Field(min_length=1)


class Rankings(BaseModel):
    """A ranking per question: groups of labels from the most to the least believable."""

    answers: list[_Ranking] = Field(min_length=1)


class Batch[A](Request[tuple[A, ...]]):
    """Items of one kind asked at once; the answer is each item's answer, in order."""

    most_items: ClassVar[int] = ITEMS_PER_REQUEST

    def items(self) -> tuple[Request[A], ...]:
        """The single requests this batch stands for: what each item is shown."""
        raise NotImplementedError

    def parse(self, text: str) -> tuple[A, ...]:
        given = parse_json(text, _Items).answers
        items = self.items()
        if len(given) != len(items):
            raise AnswerError(f"answers: give exactly {len(items)}, one per item in order, not {len(given)}")
        answers = []
        for number, (item, answer) in enumerate(zip(items, given, strict=True), start=1):
            try:
                answers.append(item.parse(json.dumps(answer)))
            except AnswerError as error:
                raise AnswerError(f"answers.{number}: {error}") from None
        return tuple(answers)

    def fallback(self) -> tuple[A, ...]:
        return tuple(item.fallback() for item in self.items())


@dataclass(frozen=True)
class InterviewsRequest(Batch[str]):
    """Questions put to a persona at once, each answered from the memories retrieved for it (InterviewRequest's).

    `memories` holds every question's retrieved memories once; `shown[i]` the positions (0-based) of those retrieved
    for question i, most relevant first.
    """

    kind = "interviews"
    template = "interviews.txt"
    answer_model = InterviewAnswers
    max_tokens = InterviewRequest.max_tokens * ITEMS_PER_REQUEST

    identity: Identity
    now: datetime
    questions: tuple[str, ...]
    memories: tuple[str, ...]
    shown: tuple[tuple[int, ...], ...]

    def validate(self) -> None:
        if not 1 <= len(self.questions) <= ITEMS_PER_REQUEST or len(self.shown) != len(self.questions):
            raise ValueError(f"interviews: 1 to {ITEMS_PER_REQUEST} questions, each with its memories' positions")
        if any(not 0 <= index < len(self.memories) for indices in self.shown for index in indices):
            raise ValueError("interviews: a question's memory is not among the memories")

    @classmethod
    def of(cls, identity: Identity, now: datetime, asked: Sequence[tuple[str, Sequence[str]]]) -> "InterviewsRequest":
        """The batch of (question, memories retrieved for it) pairs, each memory sent once."""
        memories = tuple(dict.fromkeys(memory for _, shown in asked for memory in shown))
        position = {memory: index for index, memory in enumerate(memories)}
        shown = tuple(tuple(position[memory] for memory in dict.fromkeys(kept)) for _, kept in asked)
        return cls(identity, now, tuple(question for question, _ in asked), memories, shown)

    def items(self) -> tuple[InterviewRequest, ...]:
        return tuple(
            InterviewRequest(self.identity, self.now, question, tuple(self.memories[index] for index in indices))
            for question, indices in zip(self.questions, self.shown, strict=True)
        )

    def fields(self) -> dict[str, str]:
        asked = []
        for number, (question, indices) in enumerate(zip(self.questions, self.shown, strict=True), start=1):
            bearing = ", ".join(str(index + 1) for index in indices) if indices else "none"
            asked.append(f"{number}. {quote(question)} (memories: {bearing})")
        return {
            **persona_fields(self.identity),
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "memories": numbered(self.memories) if self.memories else "(nothing)",
            "questions": "\n".join(asked),
            "count": str(len(self.questions)),
        }

    def constrain(self, schema: dict[str, Any]) -> None:
        count(prop(schema, "answers"), 1, ITEMS_PER_REQUEST)
        text(prop(schema, "answers", "items", "answer"), LONGEST_ANSWER)


@dataclass(frozen=True)
class RanksRequest(Batch[tuple[tuple[int, ...], ...]]):
    """Several questions' answers ranked at once, each on its own (RankRequest's), about one person.

    `asked[i]` is question i and its answers, shown under the labels A, B, C...
    """

    kind = "ranks"
    template = "ranks.txt"
    answer_model = Rankings
    temperature = 0.0
    max_tokens = RankRequest.max_tokens * ITEMS_PER_REQUEST

    context: str
    asked: tuple[tuple[str, tuple[str, ...]], ...]

    def validate(self) -> None:
        if not 1 <= len(self.asked) <= ITEMS_PER_REQUEST:
            raise ValueError(f"ranks: 1 to {ITEMS_PER_REQUEST} questions")
        self.items()  # each item validates itself

    def items(self) -> tuple[RankRequest, ...]:
        return tuple(RankRequest(question, self.context, answers) for question, answers in self.asked)

    def fields(self) -> dict[str, str]:
        blocks = []
        for number, item in enumerate(self.items(), start=1):
            pairs = zip(item.labels, item.answers, strict=True)
            shown = "\n".join(f"Answer {label}: {quote(answer)}" for label, answer in pairs)
            blocks.append(f"Question {number}: an interviewer asked this person: {quote(item.question)}\n{shown}")
        return {"context": self.context, "questions": "\n\n".join(blocks), "count": str(len(self.asked))}

    def constrain(self, schema: dict[str, Any]) -> None:
        count(prop(schema, "answers"), 1, ITEMS_PER_REQUEST)
        item = prop(schema, "answers", "items")
        _bound_reason(item)
        labels = self.items()[0].labels  # as RankRequest's: every question of an evaluation has one answer a condition
        ranking = prop(item, "ranking")
        ranking["items"]["items"]["enum"] = list(labels)
        ranking["items"]["maxItems"] = ranking["maxItems"] = len(labels)


@dataclass(frozen=True)
class FactChecksRequest(Batch[bool]):
    """Whether each of one speaker's answers shows its fact, each checked on its own (FactCheckRequest's).

    `asked[i]` is a question, the speaker's answer and the fact it is checked for.
    """

    kind = "fact_checks"
    template = "fact_checks.txt"
    answer_model = Checks
    temperature = 0.0
    max_tokens = FactCheckRequest.max_tokens * ITEMS_PER_REQUEST

    speaker: str
    asked: tuple[tuple[str, str, str], ...]

    def validate(self) -> None:
        if not 1 <= len(self.asked) <= ITEMS_PER_REQUEST:
            raise ValueError(f"fact_checks: 1 to {ITEMS_PER_REQUEST} answers")
        self.items()  # each item validates itself

    def items(self) -> tuple[FactCheckRequest, ...]:
        return tuple(FactCheckRequest(question, answer, fact, self.speaker) for question, answer, fact in self.asked)

    def fields(self) -> dict[str, str]:
        blocks = [
            f"{number}. An interviewer asked {self.speaker}: {quote(question)}\n"
            f"{self.speaker} answered: {quote(answer)}\nThe fact: {quote(fact)}"
            for number, (question, answer, fact) in enumerate(self.asked, start=1)
        ]
        return {"speaker": self.speaker, "answers": "\n\n".join(blocks), "count": str(len(self.asked))}

    def constrain(self, schema: dict[str, Any]) -> None:
        count(prop(schema, "answers"), 1, ITEMS_PER_REQUEST)
        _bound_reason(prop(schema, "answers", "items"))


# Every kind of batch, each answered item by item by the offline mind.
BATCHES = (InterviewsRequest, RanksRequest, FactChecksRequest)
