"""What a player changed: a run with the player beside the same run without them, read from the two folders.

The player's visit as the run logged it; where the runs part in the town itself (the first entry that differs that
is not the player's own move or line); where each agent went since the join in each run; what each agent remembers
of the player; and who carries the player's news (a line the player said), by the words of the agents' memories: an
estimate, as the per-step awareness figures are, labelled as such where it is shown.
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from memory import MemoryStore
from smallville.runs.compare import RunView
from smallville.runs.without_player import PlayerVisit

__all__ = ["PlayerEffect", "player_effect"]

# A memory carries a line's news when it holds at least this share of the line's content words.
NEWS_SHARE = 0.6
# Content words: at least this many letters (drops "the", "and", "is"...).
SHORTEST_WORD = 4


@dataclass
class PlayerEffect:
    """A player's effect on a run.

    Attributes:
        visit: The player's interventions.
        visit_log: The run's log entries of the visit: the player's own, and the agents' lines and talks with them.
        parted: The first entry of the run with the player that the run without does not hold (the join, as a rule).
        town_difference: The first entry of each run that the other does not hold, the player's own entries left out
            (None: the town's logs are the same; an entry is None where one run holds nothing the other lacks).
        places: agent -> (places visited since the join with the player, without), each [(time, place)].
        remembered: agent -> the memories (descriptions) naming the player, with the player and without.
        news: each line the player said that tells something -> (who carries it with the player, without).
    """

    visit: PlayerVisit
    visit_log: list[dict]
    parted: dict | None
    town_difference: tuple[dict | None, dict | None] | None
    places: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = field(default_factory=dict)
    remembered: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    news: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)


def player_effect(with_player: RunView, without: RunView, visit: PlayerVisit) -> PlayerEffect:
    """What differs between the run with the player and without, from the join to the latest moment both reached."""
    name = visit.player
    since = visit.joined.isoformat()
    moment = min(with_player.snapshot.now, without.snapshot.now)
    visit_log = [
        entry
        for entry in with_player.events
        if entry["time"] >= since and (entry["agent"] == name or entry.get("partner") == name)
    ]
    town_a = [entry for entry in with_player.events if entry["agent"] != name]
    town_b = [entry for entry in without.events if entry["agent"] != name]
    town_difference = (_first_not_in(town_a, town_b, moment), _first_not_in(town_b, town_a, moment))
    parted = _first_not_in(with_player.events, without.events, moment)
    effect = PlayerEffect(visit, visit_log, parted, None if town_difference == (None, None) else town_difference)
    for agent in with_player.agents["name"].drop_duplicates():
        effect.places[agent] = (
            _places(with_player, agent, visit.joined, moment),
            _places(without, agent, visit.joined, moment),
        )
    lines = list(dict.fromkeys(item.text for item in visit.interventions if item.kind == "say" and _telling(item.text)))
    memories = [_memories(view) for view in (with_player, without)]
    for agent in memories[0]:
        effect.remembered[agent] = tuple(
            [text for text in run.get(agent, []) if name.casefold() in text.casefold()] for run in memories
        )
    for line in lines:
        effect.news[line] = tuple(
            sorted(agent for agent, texts in run.items() if any(_carries(text, line) for text in texts))
            for run in memories
        )
    return effect


def _first_not_in(events: list[dict], other: list[dict], until: datetime) -> dict | None:
    """The first entry up to `until` that `other` does not hold (as many times): what only this run did first."""
    counts = Counter(_key(entry) for entry in other if entry["time"] <= until.isoformat())
    for entry in events:
        if entry["time"] > until.isoformat():
            break
        if counts[_key(entry)] == 0:
            return entry
        counts[_key(entry)] -= 1
    return None


def _key(entry: dict) -> tuple:
    return entry["time"], entry["agent"], entry["kind"], entry["text"]


def _places(view: RunView, agent: str, since: datetime, until: datetime) -> list[tuple[str, str]]:
    """Where the agent was from `since` to `until`: (time HH:MM, place), a new entry each time the place changes."""
    per_row = max(1, len(view.agents) // max(1, len(view.frame)))
    times = view.frame["time"]
    visited: list[tuple[str, str]] = []
    rows = view.agents[view.agents["name"] == agent]
    for index, address in zip(rows.index, rows["address"], strict=True):
        row = index // per_row
        if row >= len(times) or not since <= times.iloc[row] <= until or not isinstance(address, str):
            continue
        place = ":".join(address.split(":")[1:3])  # the building and room: the object an agent uses is noise here
        if not visited or visited[-1][1] != place:
            visited.append((f"{times.iloc[row]:%H:%M}", place))
    return visited


def _memories(view: RunView) -> dict[str, list[str]]:
    """Each agent's memory descriptions at the run's last checkpoint."""
    lengths = view.snapshot.state["stream_lengths"]
    with MemoryStore(view.folder.memory) as store:
        return {agent: [node.description for node in store.load(agent, length)] for agent, length in lengths.items()}


def _telling(line: str) -> bool:
    """Whether a line tells something: a sentence that is no question, of more than three words ("Hi there!" is not)."""
    told = re.split(r"(?<=[.!?])\s+", line.strip())
    return any(not sentence.endswith("?") and len(sentence.split()) > 3 for sentence in told)


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z0-9']+", text.casefold()) if len(word) >= SHORTEST_WORD}


def _carries(memory: str, line: str) -> bool:
    """Whether a memory holds most of a line's content words (the news, however it was passed on)."""
    wanted = _words(line)
    return bool(wanted) and len(wanted & _words(memory)) >= NEWS_SHARE * len(wanted)
