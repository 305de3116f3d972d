"""A run with a player, and what its timeline would be without them: the player's visit and where to fork from.

A player's moves and lines are interventions in the run's timeline (smallville/players/), so the run without the
player is the same run forked at a checkpoint from before the player joined, with the player's interventions taken
out of its timeline: the same seed and the same past, replayed exactly, and from the join on the town alone. This
module reads that from the run folder (which player, their interventions, the checkpoint to fork from); stepping the
town is the command's (smallville/commands/without_player.py).
"""

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from smallville.interventions.records import PLAYER_KINDS, Intervention
from smallville.runs.folder import RunFolder
from smallville.runs.fork import fork_points
from smallville.runs.integrity import RunFolderError, read_snapshot
from smallville.runs.kept_checkpoints import read_kept

__all__ = ["PlayerVisit", "checkpoint_before", "player_visit", "timeline_items"]


@dataclass(frozen=True)
class PlayerVisit:
    """A player's part of a run's timeline.

    Attributes:
        player: The player's name.
        interventions: The player's joins, moves, lines and leaves, in time order.
        joined: When the player first joined (where the runs with and without them part at the earliest).
    """

    player: str
    interventions: tuple[Intervention, ...]
    joined: datetime

    def describe(self) -> str:
        """One line: "Alex Park's 3 interventions (join, say, leave) from 2023-02-13 08:30"."""
        kinds = ", ".join(dict.fromkeys(item.kind for item in self.interventions))
        count = len(self.interventions)
        return f"{self.player}'s {count} intervention{'s' * (count != 1)} ({kinds}) from {self.joined:%Y-%m-%d %H:%M}"


def timeline_items(state: dict) -> tuple[list[Intervention], int]:
    """A checkpoint's timeline: its interventions and how many of them are applied."""
    saved = state["model"].get("interventions") or {"items": [], "applied": 0}
    return [Intervention.model_validate(item) for item in saved["items"]], saved["applied"]


def player_visit(folder: RunFolder, state: dict, player: str | None) -> PlayerVisit:
    """The named player's visit in the run's timeline (the only player's if none is named).

    Raises:
        RunFolderError: One line: no player joined the run, the named one did not, or several did and none is named.
    """
    items, _ = timeline_items(state)
    by_player: dict[str, list[Intervention]] = {}
    for item in items:
        if item.kind in PLAYER_KINDS:
            by_player.setdefault(item.player, []).append(item)
    root = folder.root
    if not by_player:
        raise RunFolderError(
            f"{root}: no player joined this run, so there is nothing to take out; join it first "
            f"(run.py join {root} --as NAME --at PLACE) or compare it with another run (run.py compare {root} OTHER)"
        )
    if player is None and len(by_player) > 1:
        raise RunFolderError(f"{root}: players {', '.join(by_player)} joined this run; name one: --without-player NAME")
    name = player if player is not None else next(iter(by_player))
    matches = [known for known in by_player if known.casefold() == " ".join(name.split()).casefold()]
    if not matches:
        raise RunFolderError(
            f"--without-player {name!r}: no such player in {root}; its players: {', '.join(by_player)}"
        )
    visit = by_player[matches[0]]
    joins = [item.time for item in visit if item.kind == "join"]
    return PlayerVisit(matches[0], tuple(visit), min(joins) if joins else visit[0].time)


def checkpoint_before(folder: RunFolder, visit: PlayerVisit) -> tuple[datetime, Path | None]:
    """The latest checkpoint the run can be forked from that is from before the player joined.

    A checkpoint qualifies when it is at or before the join and has applied none of the player's interventions
    (a join recorded at a checkpoint's very moment comes after it). Its path is None for the run's last checkpoint.

    Raises:
        RunFolderError: If the run kept no such checkpoint, naming the join and how to keep one next time.
    """
    for moment, kept in sorted(fork_points(folder).items(), reverse=True):
        if moment > visit.joined:
            continue
        state = read_kept(kept)[0] if kept is not None else json.loads(read_snapshot(folder).path.read_text())
        items, applied = timeline_items(state)
        if not any(item.player == visit.player for item in items[:applied]):
            return moment, kept
    raise RunFolderError(
        f"{folder.root}: no checkpoint kept from before {visit.player} joined ({visit.joined:%Y-%m-%d %H:%M}), so "
        "the run without the player cannot be replayed; simulate with --keep-checkpoints 'every 1h' (run.py join "
        "keeps the moment it joins at)"
    )
