"""Evaluation requests (the paper's section 6): interview answers in character, and a judge of believability."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import Verdict
from agents.language.request import Request
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

    def validate(self) -> None:
        if not self.question.strip():
            raise ValueError("interview: the question is empty")

    def fields(self) -> dict[str, str]:
        return {
            "persona": self.identity.describe(),
            "name": self.identity.name,
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
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
