"""Social requests (the paper's section 4.2 and the original's plan.py and converse.py): react, talk, summarize."""

import copy
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agents.identity import Identity
from agents.language.answers import ConversationSummary, ConversationTurn, Reaction
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import numbered, parse_json
from agents.language.schemas import number, prop, text

# A line or takeaway longer than this (characters) is cut: memories stay readable and prompts bounded.
LONGEST_LINE, LONGEST_TAKEAWAY = 500, 600
LONGEST_REASON, LONGEST_SUMMARY = 300, 600


class _Reaction(BaseModel):
    choice: Literal["talk", "wait", "continue"]
    reason: str = ""
    line: str = ""


class _Turn(BaseModel):
    line: str = Field(min_length=1)
    end: bool = False


class _Rating(BaseModel):
    chat: int
    takeaway: int


class _Summary(BaseModel):
    summary: str = Field(min_length=1)
    takeaways: dict[str, str]
    importance: dict[str, _Rating] = {}


def _clamp(score: int) -> int:
    return min(10, max(1, score))


def _said_by(speaker: str, line: str) -> str:
    """A line as said, without the "Name:" a model may put before it, cut to the longest line."""
    line = line.strip()
    if line.lower().startswith(f"{speaker.lower()}:"):
        line = line.split(":", 1)[1].strip()
    return line[:LONGEST_LINE]


def _transcript(lines: tuple[tuple[str, str], ...]) -> str:
    return "\n".join(f"{speaker}: {quote(said)}" for speaker, said in lines) or "(nothing said yet)"


@dataclass(frozen=True)
class ReactionRequest(Request[Reaction]):
    """On noticing someone: start a talk, wait for them, or go on (decide_to_talk and decide_to_react merged).

    A "talk" also gives the line that opens the talk: deciding to speak to someone and what to say first belong
    together, and the talk's first line then needs no call (and no step of its own) after the decision.
    """

    kind = "reaction"
    template = "reaction.txt"
    temperature = 0.3
    max_tokens = 300  # a reason and an opening line
    answer_model = _Reaction

    identity: Identity
    now: datetime
    own_activity: str
    other: str
    other_activity: str
    memories: tuple[str, ...] = ()
    last_chat: str = ""

    def validate(self) -> None:
        if not self.other.strip():
            raise ValueError("reaction: the other person's name is empty")

    def constrain(self, schema: dict) -> None:
        text(prop(schema, "reason"), LONGEST_REASON, least=0)
        text(prop(schema, "line"), LONGEST_LINE, least=0)

    def fields(self) -> dict[str, str]:
        return {
            "persona": self.identity.describe(),
            "name": self.identity.name,
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "own_activity": self.own_activity,
            "other": self.other,
            "other_activity": self.other_activity,
            "memories": numbered(self.memories) if self.memories else f"(nothing about {self.other})",
            "last_chat": self._last_chat(),
        }

    def _last_chat(self) -> str:
        """The last talk, or a pointer to it when it is already among the memories shown (tokens)."""
        if not self.last_chat:
            return "(they have not talked before)"
        if self.last_chat in self.memories:
            return f"(memory {self.memories.index(self.last_chat) + 1} above)"
        return self.last_chat

    def parse(self, text: str) -> Reaction:
        answer = parse_json(text, _Reaction)
        opening = _said_by(self.identity.name, answer.line) if answer.choice == "talk" else ""
        return Reaction(choice=answer.choice, reason=answer.reason, opening=opening)

    def fallback(self) -> Reaction:
        return Reaction(choice="continue", reason="no decision could be made")


@dataclass(frozen=True)
class ConversationLineRequest(Request[ConversationTurn]):
    """The speaker's next line, from its memories of the partner and the talk so far."""

    kind = "conversation_line"
    template = "conversation_line.txt"
    max_tokens = 200
    answer_model = _Turn

    speaker: Identity
    partner: str
    place: str
    now: datetime
    memories: tuple[str, ...]
    lines: tuple[tuple[str, str], ...] = ()
    max_lines: int = 16

    def validate(self) -> None:
        if not self.partner.strip():
            raise ValueError("conversation_line: the partner's name is empty")
        if self.max_lines < 1:
            raise ValueError(f"conversation_line: max_lines must be at least 1, got {self.max_lines}")

    def constrain(self, schema: dict) -> None:
        text(prop(schema, "line"), LONGEST_LINE)

    def fields(self) -> dict[str, str]:
        return {
            "persona": self.speaker.describe(),
            "name": self.speaker.name,
            "partner": self.partner,
            "place": self.place,
            "now": f"{self.now:%B %d, %Y, %I:%M %p}",
            "memories": numbered(self.memories) if self.memories else "(nothing in particular)",
            "transcript": _transcript(self.lines),
            "left": str(max(0, self.max_lines - len(self.lines))),
        }

    def parse(self, text: str) -> ConversationTurn:
        answer = parse_json(text, _Turn)
        return ConversationTurn(line=_said_by(self.speaker.name, answer.line), end=answer.end)

    def fallback(self) -> ConversationTurn:
        return ConversationTurn(line=f"Sorry {self.partner.split()[0]}, I have to go. Bye!", end=True)


@dataclass(frozen=True)
class ConversationSummaryRequest(Request[ConversationSummary]):
    """What a finished talk was about, what each side takes from it, and how much both matter to each.

    The original spends 7 calls per participant, and rates the chat alone; this request already reads the whole
    talk, so it also rates the two memories each side keeps (a rating left out: they are rated later).
    """

    kind = "conversation_summary"
    template = "conversation_summary.txt"
    temperature = 0.0
    max_tokens = 400
    answer_model = _Summary

    first: str
    second: str
    lines: tuple[tuple[str, str], ...]

    def validate(self) -> None:
        if not self.first.strip() or not self.second.strip() or self.first == self.second:
            raise ValueError(f"conversation_summary: needs two different names, got {self.first!r}, {self.second!r}")
        if not self.lines:
            raise ValueError("conversation_summary: there is no conversation to summarize")

    def constrain(self, schema: dict) -> None:
        """A takeaway for each of the two, by full name."""
        text(prop(schema, "summary"), LONGEST_SUMMARY)
        takeaway = text({}, LONGEST_TAKEAWAY)
        schema["properties"]["takeaways"] = {
            "type": "object",
            "properties": {self.first: takeaway, self.second: dict(takeaway)},
            "required": [self.first, self.second],
            "additionalProperties": False,
        }
        rating = {
            "type": "object",
            "properties": {"chat": number({}, 1, 10), "takeaway": number({}, 1, 10)},
            "required": ["chat", "takeaway"],
            "additionalProperties": False,
        }
        schema["properties"]["importance"] = {
            "type": "object",
            "properties": {self.first: rating, self.second: copy.deepcopy(rating)},
            "required": [self.first, self.second],
            "additionalProperties": False,
        }

    def fields(self) -> dict[str, str]:
        return {"first": self.first, "second": self.second, "transcript": _transcript(self.lines)}

    def parse(self, text: str) -> ConversationSummary:
        answer = parse_json(text, _Summary)
        given = {name.strip().lower(): takeaway.strip() for name, takeaway in answer.takeaways.items()}
        takeaways = {
            name: given.get(name.lower()) or given.get(name.split()[0].lower(), "")
            for name in (self.first, self.second)
        }
        missing = [name for name, takeaway in takeaways.items() if not takeaway]
        if missing:
            raise AnswerError(f"takeaways must name {self.first} and {self.second}; missing {', '.join(missing)}")
        rated = {name.strip().lower(): rating for name, rating in answer.importance.items()}
        ratings = [(name, rated.get(name.lower()) or rated.get(name.split()[0].lower())) for name in takeaways]
        return ConversationSummary(
            summary=answer.summary.strip(),
            takeaways=tuple((name, takeaway[:LONGEST_TAKEAWAY]) for name, takeaway in takeaways.items()),
            importance=tuple(
                (name, _clamp(rating.chat), _clamp(rating.takeaway)) for name, rating in ratings if rating is not None
            ),
        )

    def fallback(self) -> ConversationSummary:
        said = {
            name: " ".join(text for speaker, text in self.lines if speaker == name)
            for name in (self.first, self.second)
        }
        return ConversationSummary(
            summary=f"{self.first} and {self.second} had a conversation",
            takeaways=(
                (self.first, f"{self.second} said: {said[self.second]}"[:400]),
                (self.second, f"{self.first} said: {said[self.first]}"[:400]),
            ),
        )
