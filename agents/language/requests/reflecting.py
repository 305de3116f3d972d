"""Reflection requests (the paper's section 4.2): questions, insights with their evidence, the day's summary."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import DaySummary, Insight
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import day_text, numbered, parse_json, persona_fields, timed
from agents.language.schemas import count, number, prop, text

# Longest texts of an answer, in characters.
LONGEST_QUESTION, LONGEST_INSIGHT, LONGEST_DAY_SUMMARY, LONGEST_STATUS = 200, 300, 1000, 800
# The most questions an insights request's schema numbers (the paper asks 3; a run asking more widens it), and the
# most memories one insight cites (the ids shown vary from call to call, so the schema does not list them: the
# cognition drops an insight citing a memory the agent does not hold, agents/cognition/reflecting.py).
MOST_QUESTIONS, MOST_EVIDENCE = 10, 10


class _Questions(BaseModel):
    questions: list[str] = Field(min_length=1)


class _Insight(BaseModel):
    question: int = 1
    insight: str = Field(min_length=1)
    evidence: list[int] = []
    importance: int | None = None


class _Insights(BaseModel):
    insights: list[_Insight] = Field(min_length=1)


class _DaySummary(BaseModel):
    summary: str = Field(min_length=1)
    currently: str = Field(min_length=1)


@dataclass(frozen=True)
class ReflectionQuestionsRequest(Request[tuple[str, ...]]):
    """The most salient high-level questions about recent memories (the paper: 3)."""

    kind = "reflection_questions"
    template = "reflection_questions.txt"
    max_tokens = 300
    answer_model = _Questions

    identity: Identity
    statements: tuple[str, ...]
    n: int = 3

    def validate(self) -> None:
        if not self.statements or self.n < 1:
            raise ValueError("reflection_questions: needs statements and n >= 1")

    def constrain(self, schema: dict) -> None:
        questions = count(prop(schema, "questions"), self.n)
        text(questions["items"], LONGEST_QUESTION, least=3)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "statements": numbered(self.statements),
            "n": str(self.n),
        }

    def parse(self, text: str) -> tuple[str, ...]:
        questions = [question.strip() for question in parse_json(text, _Questions).questions if question.strip()]
        if len(questions) < self.n:
            raise AnswerError(f"expected {self.n} questions, got {len(questions)}")
        return tuple(questions[: self.n])

    def fallback(self) -> tuple[str, ...]:
        name = self.identity.name
        generic = (
            f"What matters most to {name} lately?",
            f"Who has {name} been spending time with?",
            f"What is {name} looking forward to?",
        )
        return tuple(generic[index % len(generic)] for index in range(self.n))


@dataclass(frozen=True)
class InsightsRequest(Request[tuple[Insight, ...]]):
    """Insights answering each of a reflection's questions, citing the memories they rest on, with their importance.

    One request for all the questions (the original asks once per question, then rates each insight alone): each
    question comes with the numbers of the memories retrieved for it, and each memory is listed once.
    """

    kind = "insights"
    template = "insights.txt"
    max_tokens = 1500
    answer_model = _Insights

    identity: Identity
    questions: tuple[tuple[str, tuple[int, ...]], ...]
    memories: tuple[tuple[int, str], ...]
    n: int = 5

    def validate(self) -> None:
        if not self.questions or any(not question.strip() for question, _ in self.questions):
            raise ValueError("insights: a question is empty")
        if not self.memories or self.n < 1:
            raise ValueError(f"insights: needs at least one memory and n >= 1 (got {len(self.memories)}, n={self.n})")
        shown = {node_id for node_id, _ in self.memories}
        if any(not ids or not set(ids) <= shown for _, ids in self.questions):
            raise ValueError("insights: each question needs memories, all of them listed")

    def constrain(self, schema: dict) -> None:
        """Insights numbered by question (checked by `parse`), citing memories by number (checked by the cognition)."""
        questions = max(MOST_QUESTIONS, len(self.questions))
        insights = count(prop(schema, "insights"), 1, self.n * questions)
        number(prop(insights, "items", "question"), 1, questions)
        text(prop(insights, "items", "insight"), LONGEST_INSIGHT)
        prop(insights, "items")["properties"]["importance"] = number({}, 1, 10)  # required: no null
        evidence = prop(insights, "items", "evidence")
        evidence["items"] = {"type": "integer"}
        evidence["maxItems"] = MOST_EVIDENCE

    def fields(self) -> dict[str, str]:
        questions = "\n".join(
            f"{index}. {quote(question)} (memories {', '.join(map(str, ids))})"
            for index, (question, ids) in enumerate(self.questions, start=1)
        )
        return {
            **persona_fields(self.identity),
            "questions": questions,
            "memories": "\n".join(f"[{node_id}] {quote(memory)}" for node_id, memory in self.memories),
            "n": str(self.n),
        }

    def parse(self, text: str) -> tuple[Insight, ...]:
        insights = parse_json(text, _Insights).insights
        kept, per_question = [], {}
        for item in insights:
            if not 1 <= item.question <= len(self.questions):
                raise AnswerError(f"question {item.question} is not one of the {len(self.questions)} asked")
            per_question[item.question] = per_question.get(item.question, 0) + 1
            if per_question[item.question] <= self.n:
                importance = None if item.importance is None else min(10, max(1, item.importance))
                kept.append(Insight(item.insight.strip(), tuple(item.evidence), importance))
        return tuple(kept)

    def fallback(self) -> tuple[Insight, ...]:
        return ()


@dataclass(frozen=True)
class DaySummaryRequest(Request[DaySummary]):
    """The day in short, and the persona's status going into tomorrow (the original's revise_identity, in one call).

    `memories` are (when, what) pairs: what the agent recalls of its plans for tomorrow and of important recent
    events, and the day's talk takeaways, each once and oldest first; their times let "tomorrow" in a memory of
    yesterday be told from one of today.
    """

    kind = "day_summary"
    template = "day_summary.txt"
    max_tokens = 500
    answer_model = _DaySummary

    identity: Identity
    today: date
    memories: tuple[tuple[datetime, str], ...]

    def validate(self) -> None:
        texts = [text for _, text in self.memories]
        if len(set(texts)) != len(texts):
            raise ValueError("day_summary: a memory is listed twice; list each once")

    def constrain(self, schema: dict) -> None:
        text(prop(schema, "summary"), LONGEST_DAY_SUMMARY)
        text(prop(schema, "currently"), LONGEST_STATUS)

    def fields(self) -> dict[str, str]:
        return {
            **persona_fields(self.identity),
            "today": day_text(self.today),
            "tomorrow": day_text(self.today + timedelta(days=1)),
            "memories": timed(self.memories) if self.memories else "(nothing noteworthy)",
        }

    def parse(self, text: str) -> DaySummary:
        answer = parse_json(text, _DaySummary)
        return DaySummary(summary=answer.summary.strip(), currently=answer.currently.strip())

    def fallback(self) -> DaySummary:
        return DaySummary(summary=f"{self.identity.name} went about the day.", currently=self.identity.currently)
