"""ReplayModel: a finished run folder played back in the browser, one DataCollector row (a simulated minute) a step.

Everything comes from the folder: positions and actions from metrics/agents.csv, the clock and metrics from
metrics/model.csv, plans, talks, reflections and retrievals from events.sqlite, memories from memory.sqlite, the
relationship graph from graphs/. Scrubbing makes no model call and changes nothing in the folder.
"""

import bisect
import json
from dataclasses import replace
from datetime import datetime
from functools import cache
from pathlib import Path

import mesa
import networkx as nx
import pandas as pd

from agents import load_persona
from agents.schedule import is_sleep
from memory import MemoryStore, MemoryStream, NodeKind
from smallville.app.live import RECENT_SHOWN, REFLECTIONS_SHOWN, feed_from_log, reflection_of, remembered
from smallville.app.views import (
    AgentCard,
    FeedLine,
    Marker,
    RecalledMemory,
    address_in_words,
    plan_items,
    without_repeats,
)
from smallville.runs.folder import RunFolder, read_events
from smallville.runs.integrity import read_snapshot
from smallville.runs.store import RunFolderError
from smallville.scenarios.scenario import load_scenario
from smallville.town import town_map

TALKING = "talking with "


class ReplayModel(mesa.Model):
    """A run folder as a Mesa model whose step moves the clock one recorded row forward.

    Args:
        run_folder: A folder written by `run.py simulate` (it needs at least one checkpoint).
        frame: The row to start at (0: the run's start).
    """

    live = False

    def __init__(self, run_folder: str = "", frame: int = 0):
        super().__init__()
        self.folder = RunFolder(Path(run_folder))
        if not self.folder.exists():
            raise RunFolderError(
                f"{run_folder}: not a run folder (no config.json); give a folder `run.py simulate` wrote"
            )
        if not self.folder.model_metrics.is_file() or not self.folder.agent_metrics.is_file():
            raise RunFolderError(f"{run_folder}: no metrics yet; the run stopped before its first checkpoint")
        self.config = json.loads(self.folder.config.read_text())
        setting = load_scenario(self.config["scenario_name"]).select(self.config.get("agents"))
        self.ville, _ = town_map(setting)
        self.identities = {
            name: load_persona(setting.personas_folder, name, {}).identity for name in setting.agent_names
        }
        # A run still being written (or killed) may hold rows and events past its last checkpoint, the last row
        # perhaps half written: the replay shows what the checkpoint covers.
        snapshot = read_snapshot(self.folder)
        if snapshot is None:
            raise RunFolderError(f"{run_folder}: no checkpoint yet; the run stopped before its first checkpoint")
        if snapshot.problem:  # resume would fall back to the previous checkpoint; a replay says so and stops
            raise RunFolderError(f"{snapshot.problem}; `run.py resume {run_folder}` repairs it from the one before")
        covered = snapshot.state
        self.rows = pd.read_csv(self.folder.model_metrics, nrows=covered["model_rows"])
        agent_rows = pd.read_csv(self.folder.agent_metrics, keep_default_na=False, nrows=covered["agent_rows"])
        self.positions = _frames(agent_rows, len(self.identities), len(self.rows), run_folder)
        self.times = [datetime.fromisoformat(text) for text in self.rows["time"]]
        self.events = read_events(self.folder.events)[: covered["events"]]
        self._event_times = [entry["time"] for entry in self.events]
        self._graphs = sorted(self.folder.graphs.glob("*.graphml"))
        self._graph_stamps = [path.stem for path in self._graphs]
        self._streams: dict[str, MemoryStream] = {}
        self.frame = min(max(frame, 0), len(self.rows) - 1)
        self.running = self.frame < len(self.rows) - 1

    @property
    def frames(self) -> int:
        """How many rows the run recorded."""
        return len(self.rows)

    @property
    def now(self) -> datetime:
        """The simulated time of the current row."""
        return self.times[self.frame]

    @property
    def seconds_per_step(self) -> float:
        """Simulated seconds between two recorded rows (a minute by default)."""
        return (self.times[1] - self.times[0]).total_seconds() if len(self.times) > 1 else 60.0

    def frame_at(self, when: datetime) -> int:
        """The last row at or before `when` (the first row before the run's start, the last one after its end)."""
        return max(bisect.bisect_right(self.times, when) - 1, 0)

    def step(self) -> None:
        """One recorded row forward; the replay stops at the last one."""
        self.seek(self.frame + 1)

    def seek(self, frame: int) -> None:
        """Jump to a row (clamped to the run)."""
        self.frame = min(max(frame, 0), self.frames - 1)
        self.running = self.frame < self.frames - 1

    # --- TownSource ---------------------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """The agents in the scenario's order."""
        return list(self.identities)

    def markers(self) -> list[Marker]:
        """Every agent as recorded in the current row."""
        return [
            Marker(
                name=row["name"],
                tile=(int(row["x"]), int(row["y"])),
                emoji=row["emoji"],
                activity=row["action"],
                sleeping=is_sleep(row["action"]),
                talking=row["action"].startswith(TALKING),
            )
            for row in self.positions[self.frame]
        ]

    def card(self, name: str) -> AgentCard:
        """The agent as of the current row: action, plan, its last retrieval, reflections and talk so far."""
        row = next(row for row in self.positions[self.frame] if row["name"] == name)
        identity = self.identities[name]
        events = self._events_until_now()
        stream = self._stream(name)
        now = self.now
        plan = next((e for e in reversed(events) if e["agent"] == name and e["kind"] == "plan"), None)
        recall = next((e for e in reversed(events) if e["agent"] == name and e["kind"] == "recall"), None)
        held = [node for node in stream.recent(len(stream)) if node.created <= now]
        reflections = [node for node in held if node.kind == NodeKind.REFLECTION][:REFLECTIONS_SHOWN]
        partner = row["action"].removeprefix(TALKING) if row["action"].startswith(TALKING) else None
        return AgentCard(
            person=replace(identity, currently=plan["text"]) if plan else identity,
            activity=row["action"],
            emoji=row["emoji"],
            place=address_in_words(row["address"]) if row["address"] else "",
            plan=plan_items([tuple(b) for b in plan["blocks"]], now.hour * 60 + now.minute) if plan else [],
            recalled_for=recall["text"] if recall else "",
            recalled=_recalled(recall, stream) if recall else [],
            recent=[remembered(node) for node in held[:RECENT_SHOWN]],
            reflections=[reflection_of(node, stream.node) for node in reflections],
            conversation=_talk_so_far(events, name, partner) if partner else [],
            partner=partner,
        )

    def feed(self, limit: int) -> list[FeedLine]:
        """The newest lines and summaries up to the current row."""
        return feed_from_log(self._events_until_now(), limit)

    def trails(self, minutes: int) -> dict[str, list[tuple[int, int]]]:
        """Each agent's recorded tiles over the last `minutes` rows (a row is a simulated minute)."""
        frames = self.positions[max(self.frame - minutes, 0) : self.frame + 1]
        walks: dict[str, list[tuple[int, int]]] = {}
        for frame in frames:
            for row in frame:
                walks.setdefault(row["name"], []).append((int(row["x"]), int(row["y"])))
        return {name: without_repeats(tiles) for name, tiles in walks.items()}

    def speech(self) -> list[tuple[str, str]]:
        """For each talk going on in this row, its latest line so far."""
        events, said, seen = self._events_until_now(), [], set()
        for row in self.positions[self.frame]:
            if not row["action"].startswith(TALKING):
                continue
            pair = frozenset((row["name"], row["action"].removeprefix(TALKING)))
            if pair in seen:
                continue
            seen.add(pair)
            lines = _talk_so_far(events, row["name"], row["action"].removeprefix(TALKING))
            if lines:
                said.append(lines[-1])
        return said

    def graph(self) -> nx.Graph:
        """The relationship graph of the latest snapshot at or before now (the first one before any)."""
        if not self._graphs:
            graph = nx.Graph()
            graph.add_nodes_from(self.identities)
            return graph
        index = max(bisect.bisect_right(self._graph_stamps, f"{self.now:%Y%m%dT%H%M%S}") - 1, 0)
        return _read_graph(self._graphs[index])

    def metrics(self) -> pd.DataFrame:
        """The model rows up to now."""
        return self.rows.iloc[: self.frame + 1]

    def close(self) -> None:
        """Nothing to close: the memory store is opened only while a stream is read (see `_stream`)."""

    # --- reading ------------------------------------------------------------------------------------------------

    def _events_until_now(self) -> list[dict]:
        """The events before the current row.

        A row is recorded after its step, and the step's events carry the step's start time, earlier than the row's.
        """
        return self.events[: bisect.bisect_left(self._event_times, self.now.isoformat())]

    def _stream(self, name: str) -> MemoryStream:
        """An agent's stream as saved at the run's last checkpoint, loaded once.

        The store is opened here, in the thread that reads it, and closed at once: a replay is built in one thread
        (the page's, or Reset's worker) and read in others, and an SQLite connection only works in the thread that
        opened it (a store kept open made Reset-then-select fail with "SQLite objects created in a thread...").
        """
        if name not in self._streams:
            with MemoryStore(self.folder.memory) as store:
                self._streams[name] = store.load(name)
        return self._streams[name]


def _frames(agent_rows: pd.DataFrame, agents: int, rows: int, run_folder: str) -> list[list[dict]]:
    """The agent frame cut into one list of agent rows per model row (each collection records every agent)."""
    if len(agent_rows) != agents * rows:
        raise RunFolderError(
            f"{run_folder}: metrics/agents.csv has {len(agent_rows)} rows, expected {agents} agents x {rows} "
            "collections; the run folder is damaged (resume it to rewrite the metrics from its checkpoint)"
        )
    records = agent_rows[["name", "x", "y", "action", "address", "emoji"]].to_dict("records")
    return [records[index * agents : (index + 1) * agents] for index in range(rows)]


@cache
def _read_graph(path: Path) -> nx.Graph:
    return nx.read_graphml(path)


def _recalled(recall: dict, stream: MemoryStream) -> list[RecalledMemory]:
    recalled = []
    for node_id, score, recency, relevance, importance in recall["memories"]:
        if node_id not in stream:
            continue  # stored after the last checkpoint the folder kept
        node = stream.node(node_id)
        recalled.append(
            RecalledMemory(node.description, str(node.kind), node.created, score, recency, relevance, importance)
        )
    return recalled


def _talk_so_far(events: list[dict], name: str, partner: str) -> list[tuple[str, str]]:
    """The lines of the pair's current talk: those since the agent's latest "talking with" action."""
    started = next(
        (
            e["time"]
            for e in reversed(events)
            if e["agent"] == name and e["kind"] == "action" and e["text"].startswith(TALKING)
        ),
        "",
    )
    pair = {name, partner}
    return [
        (e["agent"], e["text"])
        for e in events
        if e["kind"] == "line" and e["time"] >= started and {e["agent"], e.get("partner")} == pair
    ]
