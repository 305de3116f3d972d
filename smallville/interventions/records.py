"""Interventions as data: what a user does to a town, and when (the paper's user controls, section 3.1.2 and 3.2).

An intervention is a record (time, kind, target, text) of one of three kinds:

- `whisper`: a memory handed to one agent or several, the paper's inner voice ("You are going to run for mayor");
- `object`: an object of the world tree takes a state written in plain words ("burning"); the agents who see it
  notice it as any event and may react to it, and the world's own rules set it back (an agent who uses the object
  leaves it idle);
- `broadcast`: a memory every agent gets, as news heard on the radio.

A person who joins the town as a player (smallville/players/) is recorded with four more kinds, each naming the
`player`: `join` (at a tile of a place, `text` who they are), `move` (to a tile of a place), `say` (a line to the agent
named in `target`) and `leave`. The player's lines are data like any speech, and kept here, so a replay or a fork
says them again at the same steps instead of asking anyone.

A `Timeline` holds a run's interventions in time order and how many are applied. The model applies each at the start
of the first step at or after its time and records it in the event log; the timeline is part of the checkpoint, so
a run killed and resumed applies them at the same steps as a run in one go. They come from a scenario file's
`interventions` field, a file given with `--interventions` (TOML `[[interventions]]` tables or a JSON list), a batch
grid's `[[interventions]]`, `run.py set`, and `run.py fork`.
"""

from bisect import bisect_right
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_serializer, model_validator

from smallville.settings.simulated_time import SimulatedTime
from smallville.settings.text_files import read_data

KINDS = ("whisper", "object", "broadcast")
# A player's kinds (smallville/players/): they name the player; the others must not.
PLAYER_KINDS = ("join", "move", "say", "leave")
# A player's name is a person's name: a few words (an agent's name is as long).
LONGEST_NAME = 60
# A text is one memory or one object's state: a paragraph at most (as a whisper on the command line).
LONGEST_TEXT = 2000


class InterventionError(ValueError):
    """Interventions that cannot be used; the message names the file, the entry, the field and the fix."""


class Intervention(BaseModel):
    """One change to the town at a simulated time.

    Attributes:
        time: When it happens (applied at the start of the first step at or after it).
        kind: "whisper", "object" or "broadcast"; a player's "join", "move", "say" or "leave".
        target: Whom or what: an agent's name or a list of names (whisper), an object's address (object), nothing
            (broadcast: everyone); a place's address (join, move) or the agent spoken to (say).
        text: The memory (whisper, broadcast) or the object's new state ("burning", "out of order"); who the player
            is (join), the line said (say), the place in words (move, leave).
        player: The player's name (a player's kinds only).
        tile: Where the player stands, (x, y) (join, move).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    time: SimulatedTime
    kind: Literal["whisper", "object", "broadcast", "join", "move", "say", "leave"]
    target: str | tuple[str, ...] = ""
    text: str = Field(min_length=1, max_length=LONGEST_TEXT)
    player: str = Field(default="", max_length=LONGEST_NAME)
    tile: tuple[int, int] | None = None

    @field_validator("text")
    @classmethod
    def _plain_text(cls, text: str) -> str:
        stripped = text.strip()
        if not stripped:
            raise ValueError("is empty; give a sentence")
        if any(ord(char) < 32 and char not in "\n\t" for char in stripped):
            raise ValueError("holds control characters; give plain text")
        return stripped

    @field_validator("target", mode="before")
    @classmethod
    def _names(cls, target):
        if isinstance(target, list):
            return tuple(target)
        return target

    @field_validator("player")
    @classmethod
    def _player_name(cls, player: str) -> str:
        stripped = " ".join(player.split())
        if any(ord(char) < 32 for char in player) or ":" in stripped:
            raise ValueError("a player's name is plain words, without control characters or ':'")
        return stripped

    @model_validator(mode="after")
    def _target_fits_kind(self) -> "Intervention":
        if (self.kind in PLAYER_KINDS) != bool(self.player):
            raise ValueError(f"a player's name goes with the kinds {', '.join(PLAYER_KINDS)}, and only with them")
        if (self.kind in ("join", "move")) != (self.tile is not None):
            raise ValueError("join and move give the player's tile, [x, y]; no other kind does")
        if self.kind == "say" and (not isinstance(self.target, str) or not self.target.strip()):
            raise ValueError("a player's line needs the agent it is said to as its target")
        if self.kind == "whisper" and not self.targets:
            raise ValueError("a whisper needs a target: an agent's name or a list of names")
        if self.kind == "object" and (not isinstance(self.target, str) or self.target.count(":") != 3):
            raise ValueError("an object's target is its full address, e.g. 'the Ville:Hobbs Cafe:cafe:piano'")
        if self.kind == "broadcast" and self.targets:
            raise ValueError("a broadcast reaches everyone; leave its target out")
        return self

    @model_serializer(mode="wrap")
    def _player_fields_only_when_used(self, handler) -> dict:
        """Plain data without the player's fields when they are empty: other kinds' entries read as they always did."""
        data = handler(self)
        if not self.player:
            data.pop("player", None)
        if self.tile is None:
            data.pop("tile", None)
        return data

    @property
    def targets(self) -> tuple[str, ...]:
        """The target as a tuple of names or addresses (empty for a broadcast)."""
        if isinstance(self.target, str):
            return (self.target,) if self.target.strip() else ()
        return tuple(name for name in self.target if name.strip())

    def describe(self) -> str:
        """One line for people: when, what, to whom."""
        when = f"{self.time:%Y-%m-%d %H:%M}"
        targets = ", ".join(self.targets)
        what = {
            "object": f"{self.target} is {self.text}",
            "broadcast": f"everyone hears: {self.text}",
            "whisper": f"whisper to {targets}: {self.text}",
            "join": f"{self.player} joins the town at {self.target}: {self.text}",
            "move": f"{self.player} goes to {self.target}",
            "say": f"{self.player} to {self.target}: {self.text}",
            "leave": f"{self.player} leaves the town",
        }
        return f"{when} {what[self.kind]}"


class Timeline:
    """A run's interventions in time order (equal times in the order given), and how many are applied."""

    def __init__(self, interventions: list[Intervention] | tuple[Intervention, ...] = ()):
        self.items: list[Intervention] = sorted(interventions, key=lambda item: item.time)
        self.applied = 0

    def __len__(self) -> int:
        return len(self.items)

    def add(self, intervention: Intervention) -> None:
        """Insert after every intervention at the same time or earlier.

        Raises:
            ValueError: If one already applied comes after it (a past that has happened cannot take it).
        """
        at = bisect_right([item.time for item in self.items], intervention.time)
        if at < self.applied:
            raise ValueError(f"{intervention.describe()}: interventions after it are applied already")
        self.items.insert(at, intervention)

    def due(self, now: datetime) -> list[Intervention]:
        """The interventions not yet applied whose time has come, in order."""
        due = []
        for item in self.items[self.applied :]:
            if item.time > now:
                break
            due.append(item)
        return due

    def pending(self) -> list[Intervention]:
        """The interventions still to apply."""
        return self.items[self.applied :]

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {"items": [item.model_dump(mode="json") for item in self.items], "applied": self.applied}

    def set_state(self, state: dict) -> None:
        """Restore what `get_state` saved."""
        self.items = [Intervention.model_validate(item) for item in state["items"]]
        self.applied = state["applied"]


def parse_interventions(entries: object, source: str) -> list[Intervention]:
    """Interventions from plain data (a list of tables), each checked.

    Raises:
        InterventionError: Naming the source, the entry and the field, and the fix.
    """
    if not isinstance(entries, list):
        raise InterventionError(
            f"{source}: interventions must be a list of tables with time, kind, target and text; "
            "in TOML write each as [[interventions]]"
        )
    parsed = []
    for index, entry in enumerate(entries):
        try:
            parsed.append(Intervention.model_validate(entry))
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"] if not isinstance(part, int)) or "(entry)"
            message = first["msg"].removeprefix("Value error, ")
            raise InterventionError(
                f"{source}: intervention {index + 1}, field {field!r}: {message}; kinds are {', '.join(KINDS)}"
            ) from None
    return parsed


def load_interventions(path: str | Path) -> list[Intervention]:
    """Interventions from a file: TOML (`[[interventions]]` tables) or JSON (a list, or {"interventions": [...]}).

    Raises:
        InterventionError: If the file is missing, does not parse, or an entry is wrong.
    """
    path = Path(path)
    data = read_data(path, "interventions file", InterventionError, "JSON" if path.suffix == ".json" else "TOML")
    entries = data.get("interventions") if isinstance(data, dict) else data
    if entries is None:
        raise InterventionError(f"{path}: no interventions; write each as an [[interventions]] table")
    return parse_interventions(entries, str(path))


__all__ = [
    "KINDS",
    "PLAYER_KINDS",
    "Intervention",
    "InterventionError",
    "Timeline",
    "load_interventions",
    "parse_interventions",
]
