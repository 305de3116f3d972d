"""Social requests (the paper's section 4.2 and the original's plan.py and converse.py): react, talk, summarize."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from agents.identity import Identity
from agents.language.answers import ConversationSummary, ConversationTurn, Reaction
from agents.language.quoting import quote
from agents.language.request import AnswerError, Request
from agents.language.requests.common import clock, day_text, numbered, parse_json, readable_place, since
from agents.language.schemas import count, number, prop, text

# A line or takeaway longer than this (characters) is cut: memories stay readable and prompts bounded.
LONGEST_LINE, LONGEST_TAKEAWAY = 500, 600
LONGEST_REASON, LONGEST_SUMMARY, LONGEST_RELATIONSHIP, LONGEST_NAME = 300, 600, 300, 100
# A past talk older than this (minutes) is no longer the context of a new one (the original: 8 hours).
PAST_TALK_MINUTES = 8 * 60


class _Reaction(BaseModel):
    # The reason comes first: a model that writes its answer in order reasons before it chooses.
    reason: str = ""
    choice: Literal["talk", "wait", "continue"]
    relationship: str = ""
    line: str = ""


class _Turn(BaseModel):
    """A line; with the speaker's first, also what it feels and knows about the partner (empty otherwise).

    One answer model for every line, so the schema is the same for each (a prompt cache keys on it).
    """

    relationship: str = ""
    line: str = Field(min_length=1)
    end: bool = False


class _Takeaway(BaseModel):
    """What one of the two takes from the talk, and how important the talk and that takeaway are to them."""

    name: str = Field(min_length=1)
    takeaway: str = Field(min_length=1)
    chat_importance: int | None = None
    takeaway_importance: int | None = None


class _Summary(BaseModel):
    summary: str = Field(min_length=1)
    takeaways: list[_Takeaway] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        """Takeaways keyed by name, as the list the schema asks for.

        A model that keeps to the form the prompts asked before the schema stayed the same still answers keyed by
        name: {"takeaways": {name: text}, "importance": {name: {"chat": n, "takeaway": n}}}.
        """
        if not isinstance(value, dict) or not isinstance(value.get("takeaways"), dict):
            return value
        rated = value.get("importance") if isinstance(value.get("importance"), dict) else {}
        listed = []
        by_first_name = {str(key).split(" ")[0].lower(): rating for key, rating in rated.items()}
        for name, takeaway in value["takeaways"].items():
            rating = rated.get(name) or by_first_name.get(str(name).split(" ")[0].lower())
            rating = rating if isinstance(rating, dict) else {}
            listed.append({"name": name, "takeaway": takeaway, "chat_importance": rating.get("chat"),
                           "takeaway_importance": rating.get("takeaway")})  # fmt: skip
        return {"summary": value.get("summary"), "takeaways": listed}


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


def _when(now: datetime) -> str:
    return f"{day_text(now)}, {clock(now.hour * 60 + now.minute)}"


@dataclass(frozen=True)
class ReactionRequest(Request[Reaction]):
    """On noticing someone: start a talk, wait for them, or go on (decide_to_talk and decide_to_react merged).

    A "talk" also gives the line that opens the talk and what the agent feels and knows about the other (the
    original's relationship summary, asked once per talk here instead of before every line): deciding to speak to
    someone, what to say first and what one thinks of them belong together, and the talk's first line then needs no
    call of its own. "wait" is offered only when both are after the same place or object (`shared_place`), as in the
    original, where waiting is for a bathroom or a counter, never a way to put a talk off.
    """

    kind = "reaction"
    template = "reaction.txt"
    temperature = 0.3
    max_tokens = 360  # a reason, a relationship and an opening line
    answer_model = _Reaction

    identity: Identity
    now: datetime
    own_activity: str
    other: str
    other_activity: str
    memories: tuple[str, ...] = ()
    last_chat: str = ""
    last_chat_minutes: int | None = None
    shared_place: str = ""

    def validate(self) -> None:
        if not self.other.strip():
            raise ValueError("reaction: the other person's name is empty")
        if self.last_chat and self.last_chat_minutes is None:
            raise ValueError("reaction: last_chat needs last_chat_minutes (how long ago they talked)")

    @property
    def choices(self) -> tuple[str, ...]:
        """The choices offered: "wait" only over a shared place or object."""
        return ("talk", "wait", "continue") if self.shared_place else ("talk", "continue")

    def constrain(self, schema: dict) -> None:
        """All three choices whatever the place ("wait" with nothing shared reads as "continue": see `parse`)."""
        text(prop(schema, "reason"), LONGEST_REASON, least=0)
        text(prop(schema, "relationship"), LONGEST_RELATIONSHIP, least=0)
        text(prop(schema, "line"), LONGEST_LINE, least=0)

    def fields(self) -> dict[str, str]:
        name, other = self.identity.name, self.other
        if self.shared_place:
            options = (
                f"Both are headed for the same place ({readable_place(self.shared_place)}), which one person uses at "
                f'a time. Should {name} start a conversation with {other} ("talk"), wait until {other} has finished '
                f'there ("wait"), or go on with what {name} is doing ("continue")?'
            )
        else:
            options = (
                f'Should {name} start a conversation with {other} ("talk") or go on with what {name} is doing '
                '("continue")?'
            )
        return {
            "persona": self.identity.describe(),
            "name": name,
            "now": _when(self.now),
            "own_activity": self.own_activity,
            "other": other,
            "other_activity": self.other_activity,
            "memories": numbered(self.memories) if self.memories else f"(nothing about {other})",
            "last_chat": self._last_chat(),
            "options": options,
        }

    def _last_chat(self) -> str:
        """When they last talked and about what (a pointer to the memory when it is already shown: tokens)."""
        if not self.last_chat:
            return "They have not talked before."
        ago = f"They last talked {since(self.last_chat_minutes)} ago"
        if self.last_chat in self.memories:
            return f"{ago} (memory {self.memories.index(self.last_chat) + 1} above)."
        return f"{ago}: {quote(self.last_chat)}"

    def parse(self, text: str) -> Reaction:
        answer = parse_json(text, _Reaction)
        choice = answer.choice if answer.choice in self.choices else "continue"  # no shared place: nothing to wait for
        if choice != "talk":
            return Reaction(choice=choice, reason=answer.reason)
        return Reaction(
            choice=choice,
            reason=answer.reason,
            opening=_said_by(self.identity.name, answer.line),
            relationship=answer.relationship.strip()[:LONGEST_RELATIONSHIP],
        )

    def fallback(self) -> Reaction:
        return Reaction(choice="continue", reason="no decision could be made")


@dataclass(frozen=True)
class ConversationLineRequest(Request[ConversationTurn]):
    """The speaker's next line, in the original's context: past and current, what it feels about the partner.

    The prompt says when the two last talked and about what (within 8 hours, as the original), what each was doing
    when the talk began, and what the speaker feels and knows about the partner (`relationship`). A speaker's first
    line that has no relationship yet asks for it in the same answer, so the rest of the talk recalls with it and
    shows it, without the original's extra call before every line.
    """

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
    own_activity: str = ""
    partner_activity: str = ""
    started_by: str = ""
    past_chat: str = ""
    past_chat_minutes: int | None = None
    relationship: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.asks_relationship:
            object.__setattr__(self, "max_tokens", type(self).max_tokens + 80)

    @property
    def asks_relationship(self) -> bool:
        """Whether the answer also says what the speaker feels and knows about the partner (none known yet)."""
        return not self.relationship

    def validate(self) -> None:
        if not self.partner.strip():
            raise ValueError("conversation_line: the partner's name is empty")
        if self.max_lines < 1:
            raise ValueError(f"conversation_line: max_lines must be at least 1, got {self.max_lines}")
        if self.past_chat and self.past_chat_minutes is None:
            raise ValueError("conversation_line: past_chat needs past_chat_minutes (how long ago they talked)")

    def constrain(self, schema: dict) -> None:
        """The relationship may be empty in the schema (it is asked only with a speaker's first line)."""
        text(prop(schema, "relationship"), LONGEST_RELATIONSHIP, least=0)
        text(prop(schema, "line"), LONGEST_LINE)

    def fields(self) -> dict[str, str]:
        name, partner = self.speaker.name, self.partner
        context = [f"It is {_when(self.now)}, in the {readable_place(self.place)}."]
        if self.past_chat and self.past_chat_minutes is not None and self.past_chat_minutes < PAST_TALK_MINUTES:
            context.append(
                f"{since(self.past_chat_minutes)} ago, {name} and {partner} were already talking: "
                f"{quote(self.past_chat)}. This conversation takes place after that one."
            )
        if self.own_activity and self.partner_activity:
            context.append(
                f"{name} was {quote(self.own_activity)} when {name} saw {partner} in the middle of "
                f"{quote(self.partner_activity)}."
            )
        if self.started_by:
            context.append(f"{self.started_by} started the conversation.")
        if self.relationship:
            context.append(f"What {name} feels and knows about {partner}: {quote(self.relationship)}")
        asked = (
            f'\nAlso give "relationship": one sentence on what {name} feels and knows about {partner}, from the '
            "memories above."
            if self.asks_relationship
            else ""
        )
        example = (
            '{"relationship": "...", "line": "...", "end": false}'
            if self.asks_relationship
            else '{"relationship": "", "line": "...", "end": false}'
        )
        return {
            "persona": self.speaker.describe(),
            "name": name,
            "partner": partner,
            "context": "\n".join(context),
            "memories": numbered(self.memories) if self.memories else "(nothing in particular)",
            "transcript": _transcript(self.lines),
            "left": str(max(0, self.max_lines - len(self.lines))),
            "relationship_asked": asked,
            "example": example,
        }

    def parse(self, text: str) -> ConversationTurn:
        answer = parse_json(text, _Turn)
        relationship = answer.relationship.strip()[:LONGEST_RELATIONSHIP] if self.asks_relationship else ""
        return ConversationTurn(
            line=_said_by(self.speaker.name, answer.line), end=answer.end, relationship=relationship
        )

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
        """Two takeaways, each naming whose it is (the names are in the prompt; `parse` checks them), rated 1-10."""
        text(prop(schema, "summary"), LONGEST_SUMMARY)
        takeaways = count(prop(schema, "takeaways"), 2)
        text(prop(takeaways, "items", "name"), LONGEST_NAME)
        text(prop(takeaways, "items", "takeaway"), LONGEST_TAKEAWAY)
        for rating in ("chat_importance", "takeaway_importance"):
            prop(takeaways, "items")["properties"][rating] = number({}, 1, 10)  # required: no null

    def fields(self) -> dict[str, str]:
        return {"first": self.first, "second": self.second, "transcript": _transcript(self.lines)}

    def parse(self, text: str) -> ConversationSummary:
        answer = parse_json(text, _Summary)
        given = {item.name.strip().lower(): item for item in answer.takeaways if item.takeaway.strip()}
        takeaways = {
            name: given.get(name.lower()) or given.get(name.split()[0].lower()) for name in (self.first, self.second)
        }
        missing = [name for name, item in takeaways.items() if item is None]
        if missing:
            raise AnswerError(f"takeaways must name {self.first} and {self.second}; missing {', '.join(missing)}")
        return ConversationSummary(
            summary=answer.summary.strip(),
            takeaways=tuple((name, item.takeaway.strip()[:LONGEST_TAKEAWAY]) for name, item in takeaways.items()),
            importance=tuple(
                (name, _clamp(item.chat_importance), _clamp(item.takeaway_importance))
                for name, item in takeaways.items()
                if item.chat_importance is not None and item.takeaway_importance is not None
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
