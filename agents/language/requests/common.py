"""What the request types share: answer validation with pydantic, block arithmetic, listing memories."""

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from agents.identity import Identity
from agents.language.answers import PlanBlock
from agents.language.quoting import quote
from agents.language.request import AnswerError, extract_json


def parse_json[M: BaseModel](text: str, model: type[M]) -> M:
    """The first JSON value of an answer, validated by a pydantic model.

    Raises:
        AnswerError: With what was wrong, for the repair prompt.
    """
    value: Any = extract_json(text)
    try:
        return model.model_validate(value)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the answer"
        raise AnswerError(f"{where}: {problem['msg']}") from error


def persona_fields(identity: Identity) -> dict[str, str]:
    """The persona's description and name, with which the prompt of every request about a persona begins."""
    return {"persona": identity.describe(), "name": identity.name}


def numbered(items: Sequence[str]) -> str:
    """Items as a numbered list, 1-based, each quoted: memories, plans and actions are data, never instructions."""
    return "\n".join(f"{index}. {quote(item)}" for index, item in enumerate(items, start=1))


def timed(memories: Sequence[tuple[datetime, str]]) -> str:
    """Memories with when they happened, one a line, each quoted (what the original's revise_identity showed)."""
    return "\n".join(f"- {when:%A %B} {when.day}, {clock(when.hour * 60 + when.minute)}: {quote(text)}"
                     for when, text in memories)  # fmt: skip


def since(minutes: int) -> str:
    """A time span as a person says it: "5 minutes", "2 hours and 10 minutes", "3 days"."""
    if minutes >= 48 * 60:
        return f"{minutes // (24 * 60)} days"
    hours, rest = divmod(max(0, minutes), 60)
    parts = [f"{hours} hour{'s' * (hours != 1)}"] * bool(hours) + [f"{rest} minute{'s' * (rest != 1)}"] * bool(rest)
    return " and ".join(parts) or "less than a minute"


def readable_place(address: str) -> str:
    """A world-tree address as prose, as the original wrote it: "library in Oak Hill College"."""
    parts = [part for part in address.split(":")[1:] if part]
    return " in ".join(reversed(parts)) if parts else address or "somewhere outdoors"


def clock(minute: int) -> str:
    """Minutes after midnight as "8:05 am"."""
    hour, minutes = divmod(minute % (24 * 60), 60)
    return f"{(hour % 12) or 12}:{minutes:02d} {'am' if hour < 12 else 'pm'}"


def day_text(day: date | datetime) -> str:
    """A date as prompts write it: "Monday February 13, 2023"."""
    return f"{day:%A %B} {day.day}, {day.year}"


def fit_blocks(
    blocks: Sequence[tuple[str, int]], total: int, *, step: int = 5, shortest: int = 5, longest: int | None = None
) -> tuple[PlanBlock, ...]:
    """Blocks rounded to `step` minutes, split past `longest`, and trimmed or extended to sum to `total` exactly.

    Models often get the arithmetic of a schedule slightly wrong; the plan is still usable, so the parser
    repairs the arithmetic instead of rejecting the answer.

    Raises:
        AnswerError: If there is no block with a name.
    """
    named = [(activity.strip(), int(minutes)) for activity, minutes in blocks if activity and activity.strip()]
    if not named:
        raise AnswerError("no activities with names")
    pieces: list[list] = []
    for activity, asked in named:
        left = max(shortest, step * round(max(asked, 0) / step))
        while longest is not None and left > longest:
            pieces.append([activity, longest])
            left -= longest
        if left >= shortest or not pieces:
            pieces.append([activity, max(left, shortest)])
        else:
            pieces[-1][1] += left
    while sum(minutes for _, minutes in pieces) > total:
        excess = sum(minutes for _, minutes in pieces) - total
        last = pieces[-1]
        if last[1] - excess >= shortest:
            last[1] -= excess
        elif len(pieces) > 1:
            pieces.pop()
        else:
            last[1] = total
    while sum(minutes for _, minutes in pieces) < total:
        missing = total - sum(minutes for _, minutes in pieces)
        last = pieces[-1]
        room = missing if longest is None else min(missing, longest - last[1])
        if room > 0:
            last[1] += room
        else:
            pieces.append([last[0], min(missing, longest)])
    return tuple(PlanBlock(activity, minutes) for activity, minutes in pieces)
