"""Evaluation requests (the paper's sections 6 and 7): answers in character, judges of believability, fact checks.

`RankRequest` orders several answers to one question (the paper's evaluators ranked all conditions' answers);
`FactCheckRequest` says whether an answer shows a stated fact (the interview-based awareness and relationships).
"""

import string
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import Verdict
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json


class _Answer(BaseModel):
    answer: str = Field(min_length=1)


class _Verdict(BaseModel):
    choice: Literal["a", "b", "A", "B"]
    reason: str = ""


@dataclass(frozen=True)
class InterviewRequest(Request[str]):
    """An interviewer's question, answered in character, in the first person, from the persona's memories."""

    kind = "interview"
    template = "interview.txt"
    max_tokens = 400

    identity: Identity
    now: datetime
    question: str
    memories: tuple[str, ...]
    # Whom the agent believes it faces (the paper's user persona, "a news reporter"); "" for an interviewer.
    asker: str = ""

    def validate(self) -> None:
        if not self.question.strip():
            raise ValueError("interview: the question is empty")

    def fields(self) -> dict[str, str]:
        asker = f"A person who introduces themselves as {quote(self.asker)}" if self.asker.strip() else "An interviewer"
        return {
            "persona": self.identity.describe(),
            "name": self.identity.name,
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "asker": asker,
            "question": self.question,
            "memories": numbered(self.memories) if self.memories else "(nothing)",
        }

    def parse(self, text: str) -> str:
        return parse_json(text, _Answer).answer.strip()

    def fallback(self) -> str:
        return "I'm not sure what to say about that."


@dataclass(frozen=True)
class JudgeRequest(Request[Verdict]):
    """Which of two answers to an interview question is more believable for the persona, and why."""

    kind = "judge"
    template = "judge.txt"
    temperature = 0.0
    max_tokens = 300

    question: str
    context: str
    answer_a: str
    answer_b: str

    def validate(self) -> None:
        if not self.question.strip() or not self.answer_a.strip() or not self.answer_b.strip():
            raise ValueError("judge: the question and both answers must be non-empty")

    def fields(self) -> dict[str, str]:
        return {"question": self.question, "context": self.context, "a": self.answer_a, "b": self.answer_b}

    def parse(self, text: str) -> Verdict:
        answer = parse_json(text, _Verdict)
        return Verdict(choice=answer.choice.lower(), reason=answer.reason.strip())

    def fallback(self) -> Verdict:
        return Verdict(choice="a", reason="no verdict could be reached; defaulted to the first answer")


class _Ranking(BaseModel):
    ranking: list[str] = Field(min_length=1)
    reason: str = ""


class _Check(BaseModel):
    shows: bool
    reason: str = ""


@dataclass(frozen=True)
class RankRequest(Request[tuple[int, ...]]):
    """Rank answers to one interview question, most believable first; labels hide where each answer came from.

    The answer is the answers' positions (0-based, as given in `answers`) from most to least believable.
    """

    kind = "rank"
    template = "rank.txt"
    temperature = 0.0
    max_tokens = 300

    question: str
    context: str
    answers: tuple[str, ...]

    def validate(self) -> None:
        if not self.question.strip() or len(self.answers) < 2 or len(self.answers) > len(string.ascii_uppercase):
            raise ValueError("rank: a question and 2 to 26 answers are needed")

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels the answers are shown under: A, B, C..."""
        return tuple(string.ascii_uppercase[: len(self.answers)])

    def fields(self) -> dict[str, str]:
        shown = "\n".join(f"Answer {label}: {answer}" for label, answer in zip(self.labels, self.answers, strict=True))
        return {
            "question": self.question,
            "context": self.context,
            "answers": shown,
            "count": str(len(self.answers)),
            "labels": ", ".join(self.labels),
        }

    def parse(self, text: str) -> tuple[int, ...]:
        given = parse_json(text, _Ranking).ranking
        ranking = [label.strip().upper().removeprefix("ANSWER ").strip() for label in given]
        if sorted(ranking) != sorted(self.labels):
            raise AnswerError(f"ranking must list each of {', '.join(self.labels)} exactly once, got {ranking}")
        return tuple(self.labels.index(label) for label in ranking)

    def fallback(self) -> tuple[int, ...]:
        return tuple(range(len(self.answers)))


@dataclass(frozen=True)
class FactCheckRequest(Request[bool]):
    """Whether an interview answer shows that the speaker knows a stated fact (yes only if the answer says so)."""

    kind = "fact_check"
    template = "fact_check.txt"
    temperature = 0.0
    max_tokens = 200

    question: str
    answer: str
    fact: str

    def validate(self) -> None:
        if not self.fact.strip():
            raise ValueError("fact_check: the fact is empty")

    def fields(self) -> dict[str, str]:
        return {"question": self.question, "answer": self.answer, "fact": self.fact}

    def parse(self, text: str) -> bool:
        return parse_json(text, _Check).shows

    def fallback(self) -> bool:
        return False
