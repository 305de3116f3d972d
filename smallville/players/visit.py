"""A player's visit, one call per thing a person does: join, go somewhere, say a line and hear the answer, leave.

Each call checks what it is given against the town, then records the move or line as an intervention at the
current time (SmallvilleModel.intervene_now), so the run's timeline holds the whole visit and a replay or a fork says
the same lines at the same steps. `say` steps the town until the agent's answer comes: the agent takes its turn as
in any talk, after the steps its thinking takes. The command line (`run.py join`) and the page both call these.
"""

from dataclasses import dataclass
from datetime import datetime

from smallville.interventions.records import Intervention, InterventionError
from smallville.players.places import PlaceError, earshot, find_place, tile_near, tile_of_place
from smallville.players.talks import player_talk

# The most steps `say` waits for an answer (10 simulated minutes at 10 s a step): an agent answers within its
# talk thinking steps (at most a few dozen), so this bound is reached only if something is wrong.
MAX_WAIT_STEPS = 60


class VisitError(ValueError):
    """A move or line that cannot be made; the message is one line naming what is wrong and the fix."""


@dataclass(frozen=True)
class Reply:
    """What came back from a line: the agent's answer, or why there is none."""

    agent: str
    line: str | None
    note: str = ""

    def describe(self) -> str:
        """One line for people: "Isabella Rodriguez: Hello!" or "(Isabella Rodriguez is asleep and does not answer)"."""
        return f"{self.agent}: {self.line}" if self.line is not None else f"({self.note})"


def checked_name(model, name: str) -> str:
    """The player's name, checked: plain words, no agent's name.

    Raises:
        VisitError: If it cannot be a player's name.
    """
    cleaned = " ".join(name.split())
    if not cleaned or any(ord(char) < 32 for char in name) or ":" in cleaned or len(cleaned) > 60:
        raise VisitError(f"--as {name!r}: give a person's name in plain words (at most 60 characters, no ':')")
    if cleaned.casefold() in {agent.casefold() for agent in model.by_name}:
        raise VisitError(f"--as {cleaned!r}: that is an agent of this town; join under another name")
    return cleaned


def checked_place(model, place: str) -> str:
    """The full address of a place named in words.

    Raises:
        VisitError: Naming the nearest places.
    """
    try:
        return find_place(model.ville, place)
    except PlaceError as error:
        raise VisitError(str(error)) from None


def join(model, name: str, persona: str, place: str | None = None, near: str | None = None) -> None:
    """Put the player in the town at a place (an address), or beside an agent.

    Raises:
        VisitError: If the place has nowhere to stand or the text is not plain.
    """
    tile = _tile(model, place) if place else tile_near(model.ville, model.by_name[near].tile)
    address = place or model.ville.arena_address_at(tile)
    _record(model, kind="join", player=name, target=address, text=persona, tile=tile)


def go(model, name: str, place: str) -> None:
    """The player goes to a place (an address); a talk in progress ends."""
    _record(model, kind="move", player=name, target=place, text=place, tile=_tile(model, place))


def say(model, name: str, agent: str, text: str) -> Reply:
    """The player says a line to an agent (walking up to it first if out of earshot), then waits for the answer.

    Raises:
        VisitError: If the player is not in the town or the line is not plain text.
    """
    player = model.players.get(name)
    if player is None:
        raise VisitError(f"{name} is not in the town; join first")
    other = model.by_name[agent]
    if not earshot(model.ville, player.tile, other.tile, model.config.vision_radius):
        tile = tile_near(model.ville, other.tile)
        address = model.ville.arena_address_at(tile)
        _record(model, kind="move", player=name, target=address, text=address, tile=tile)
    _record(model, kind="say", player=name, target=agent, text=text)
    conversation = player_talk(model, name, agent)
    if conversation is None or not conversation.lines or conversation.lines[-1] != (name, text.strip()):
        said_by = (entry for entry in reversed(model.event_log) if entry["agent"] == name)
        refused = next((entry for entry in said_by if entry.get("intervention") == "say"), None)
        return Reply(agent, None, refused["text"] if refused else f"{agent} does not answer")
    said = len(conversation.lines)
    for _ in range(MAX_WAIT_STEPS):
        if len(conversation.lines) > said or conversation not in model.conversations:
            break
        model.step()
    if len(conversation.lines) > said:
        return Reply(agent, conversation.lines[said][1])
    return Reply(agent, None, f"{agent} said nothing back")


def said_to(model, name: str, since: datetime) -> list[tuple[datetime, Reply]]:
    """The lines agents said to the player from `since` on, oldest first: an agent may open a talk itself."""
    heard = []
    for entry in model.event_log:
        if entry["kind"] == "line" and entry.get("partner") == name:
            when = datetime.fromisoformat(entry["time"])
            if when >= since:
                heard.append((when, Reply(entry["agent"], entry["text"])))
    return heard


def joined_at(model, name: str) -> datetime | None:
    """When the player last joined the town (None if it never did in this run's log)."""
    joins = (
        entry for entry in reversed(model.event_log) if entry["agent"] == name and entry.get("intervention") == "join"
    )
    entry = next(joins, None)
    return datetime.fromisoformat(entry["time"]) if entry else None


def leave(model, name: str) -> None:
    """The player leaves the town; a talk in progress ends (the agent keeps it)."""
    if name in model.players:
        _record(model, kind="leave", player=name, text="leaves the town")


def _tile(model, address: str) -> tuple[int, int]:
    try:
        return tile_of_place(model.ville, address)
    except PlaceError as error:
        raise VisitError(str(error)) from None


def _record(model, **fields) -> None:
    """The intervention at the current time, checked, added to the timeline and applied."""
    try:
        item = Intervention(time=model.now, **fields)
        model.intervene_now(item)
    except (InterventionError, ValueError) as error:
        raise VisitError(_first_line(error)) from None


def _first_line(error: Exception) -> str:
    """A pydantic error's message as one line: the field and what is wrong with it."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        first = errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "entry"
        return f"{field}: {first['msg'].removeprefix('Value error, ')}"
    return str(error).splitlines()[0]
