"""Evaluation requests (the paper's sections 6 and 7): answers in character, judges of believability, fact checks.

`RankRequest` orders several answers to one question, ties allowed (the paper's evaluators ranked all conditions'
answers); `FactCheckRequest` says whether an answer shows a stated fact (interview-based awareness and relationships);
`GroundRequest` says which of the memories an agent holds support that fact (a "yes" no memory supports is a
hallucination). Each declares its answer model, so providers that enforce a JSON schema get one.
"""

import string
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import Verdict
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json, persona_fields
from agents.language.schemas import prop, text

# Characters of an interview answer (two to four sentences; the 400 tokens it may take are ~1,600 characters), and
# of a judge's reason (a sentence or two, within the judges' 200-300 tokens).
LONGEST_ANSWER = 1600
LONGEST_REASON = 600


def _bound_reason(schema: dict[str, Any]) -> None:
    """A judge's reason may be empty, never endless (an unbounded string runs to max_tokens)."""
    text(prop(schema, "reason"), LONGEST_REASON, least=0)


class InterviewAnswer(BaseModel):
    """An answer in character."""

    answer: str = Field(min_length=1)


class JudgeVerdict(BaseModel):
    """The more believable of two answers."""

    reason: str = ""
    choice: Literal["a", "b"]


class _LenientVerdict(BaseModel):
    reason: str = ""
    choice: Literal["a", "b", "A", "B"]


@dataclass(frozen=True)
class InterviewRequest(Request[str]):
    """An interviewer's question, answered in character, in the first person, from the persona's memories."""

    kind = "interview"
    template = "interview.txt"
    answer_model = InterviewAnswer
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
            **persona_fields(self.identity),
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "asker": asker,
            "question": self.question,
            "memories": numbered(self.memories) if self.memories else "(nothing)",
        }

    def constrain(self, schema: dict[str, Any]) -> None:
        text(prop(schema, "answer"), LONGEST_ANSWER)

    def parse(self, text: str) -> str:
        return parse_json(text, InterviewAnswer).answer.strip()

    def fallback(self) -> str:
        return "I'm not sure what to say about that."


@dataclass(frozen=True)
class JudgeRequest(Request[Verdict]):
    """Which of two answers to an interview question is more believable for the persona, and why."""

    kind = "judge"
    template = "judge.txt"
    answer_model = JudgeVerdict
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

    def constrain(self, schema: dict[str, Any]) -> None:
        _bound_reason(schema)

    def parse(self, text: str) -> Verdict:
        answer = parse_json(text, _LenientVerdict)
        return Verdict(choice=answer.choice.lower(), reason=answer.reason.strip())

    def fallback(self) -> Verdict:
        return Verdict(choice="a", reason="no verdict could be reached; defaulted to the first answer")


class Ranking(BaseModel):
    """Groups of answer labels from the most to the least believable; answers in one group are equally good."""

    reason: str = ""
    ranking: list[list[str]] = Field(min_length=1)


class _LenientRanking(BaseModel):
    reason: str = ""
    ranking: list[str | list[str]] = Field(min_length=1)


class Check(BaseModel):
    """Whether an answer shows a fact."""

    reason: str = ""
    shows: bool


class Support(BaseModel):
    """The numbers of the memories that support a fact (empty: none does)."""

    reason: str = ""
    supported_by: list[int]


@dataclass(frozen=True)
class RankRequest(Request[tuple[tuple[int, ...], ...]]):
    """Rank answers to one interview question, most believable first, ties allowed; labels hide their sources.

    The answer is groups of the answers' positions (0-based, as given in `answers`), from the most to the least
    believable; answers in one group are equally good (a draw).
    """

    kind = "rank"
    template = "rank.txt"
    answer_model = Ranking
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
        pairs = zip(self.labels, self.answers, strict=True)
        shown = "\n".join(f"Answer {label}: {quote(answer)}" for label, answer in pairs)
        return {
            "question": self.question,
            "context": self.context,
            "answers": shown,
            "count": str(len(self.answers)),
            "labels": ", ".join(self.labels),
        }

    def constrain(self, schema: dict[str, Any]) -> None:
        _bound_reason(schema)
        schema["properties"]["ranking"]["items"]["items"]["enum"] = list(self.labels)
        schema["properties"]["ranking"]["items"]["maxItems"] = len(self.labels)
        schema["properties"]["ranking"]["maxItems"] = len(self.labels)

    def parse(self, text: str) -> tuple[tuple[int, ...], ...]:
        given = parse_json(text, _LenientRanking).ranking
        groups = [[item] if isinstance(item, str) else item for item in given]
        groups = [[label.strip().upper().removeprefix("ANSWER ").strip() for label in group] for group in groups]
        listed = [label for group in groups for label in group]
        if sorted(listed) != sorted(self.labels):
            raise AnswerError(f"ranking must list each of {', '.join(self.labels)} exactly once, got {listed}")
        return tuple(tuple(self.labels.index(label) for label in group) for group in groups if group)

    def fallback(self) -> tuple[tuple[int, ...], ...]:
        """All tied: no judgement is a draw, never the shown order (which would become a position bias)."""
        return (tuple(range(len(self.answers))),)


@dataclass(frozen=True)
class FactCheckRequest(Request[bool]):
    """Whether an interview answer shows that the speaker knows a stated fact (yes only if the answer says so)."""

    kind = "fact_check"
    template = "fact_check.txt"
    answer_model = Check
    temperature = 0.0
    max_tokens = 200

    question: str
    answer: str
    fact: str
    speaker: str = "the person"

    def validate(self) -> None:
        if not self.fact.strip():
            raise ValueError("fact_check: the fact is empty")

    def fields(self) -> dict[str, str]:
        return {"question": self.question, "answer": self.answer, "fact": self.fact, "speaker": self.speaker}

    def constrain(self, schema: dict[str, Any]) -> None:
        _bound_reason(schema)

    def parse(self, text: str) -> bool:
        return parse_json(text, Check).shows

    def fallback(self) -> bool:
        return False


@dataclass(frozen=True)
class GroundRequest(Request[tuple[int, ...]]):
    """Which of the memories the speaker holds (numbered) support a fact its answer claims; none is a hallucination.

    The answer is the supporting memories' positions in `memories` (0-based), in increasing order.
    """

    kind = "ground"
    template = "ground.txt"
    answer_model = Support
    temperature = 0.0
    max_tokens = 300

    question: str
    answer: str
    fact: str
    speaker: str
    memories: tuple[str, ...]

    def validate(self) -> None:
        if not self.fact.strip():
            raise ValueError("ground: the fact is empty")

    def fields(self) -> dict[str, str]:
        return {
            "question": self.question,
            "answer": self.answer,
            "fact": self.fact,
            "speaker": self.speaker,
            "memories": numbered(self.memories) if self.memories else "(none)",
        }

    def constrain(self, schema: dict[str, Any]) -> None:
        _bound_reason(schema)
        items = schema["properties"]["supported_by"]["items"]
        items["minimum"], items["maximum"] = 1, max(1, len(self.memories))
        schema["properties"]["supported_by"]["maxItems"] = len(self.memories)

    def parse(self, text: str) -> tuple[int, ...]:
        numbers = parse_json(text, Support).supported_by
        wrong = [number for number in numbers if not 1 <= number <= len(self.memories)]
        if wrong:
            raise AnswerError(f"supported_by: {wrong[0]} is not a memory's number (1 to {len(self.memories)})")
        return tuple(sorted({number - 1 for number in numbers}))

    def fallback(self) -> tuple[int, ...]:
        return ()
