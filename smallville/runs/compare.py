"""Two runs side by side (a run and its fork, or two seeds): where they first differ and what differs by a moment.

Read from the run folders alone, each at its last checkpoint (rows and events past it are left out, as `report`
does), so a run being written can be compared too. What differs is taken at the latest moment both runs reached:
who knows each tracked fact (the per-step estimate from memories), who talked with whom, who knows whom (the
relationship graph), density, people at the gathering, model calls, tokens and cost.
"""

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import networkx as nx
import pandas as pd

from smallville.runs.folder import RunFolder, read_events
from smallville.runs.integrity import RunFolderError, Snapshot, read_config, read_snapshot

__all__ = ["Comparison", "RunView", "compare_runs", "read_run"]

# The model frame's figures a comparison reports at its moment, in order (the tracked facts' shares follow).
FIGURES = ("density", "attendees", "model_calls", "tokens", "cost")


@dataclass
class RunView:
    """What a comparison reads of one run at its last checkpoint."""

    folder: RunFolder
    config: dict
    snapshot: Snapshot
    events: list[dict]
    frame: pd.DataFrame  # the model metrics, `time` parsed
    agents: pd.DataFrame  # the agent metrics

    @property
    def name(self) -> str:
        """The run folder's name."""
        return self.folder.root.name

    def row_at(self, moment: datetime) -> pd.Series:
        """The model metrics' last row at or before `moment`."""
        rows = self.frame[self.frame["time"] <= moment]
        return rows.iloc[-1] if len(rows) else self.frame.iloc[0]

    def knowing(self, fact: str, moment: datetime) -> set[str]:
        """Who knows a tracked fact by `moment`, by the per-step estimate."""
        column = f"knows_{fact}"
        if column not in self.agents:
            return set()
        since = self.agents[["name", column]].dropna()
        return {name for name, when in since.itertuples(index=False) if str(when) and str(when) <= moment.isoformat()}

    def talked(self, moment: datetime) -> set[frozenset[str]]:
        """The pairs who talked by `moment`."""
        return {
            frozenset((entry["agent"], entry.get("partner", "")))
            for entry in self.events
            if entry["kind"] == "talk" and entry["time"] <= moment.isoformat()
        }

    def ties(self, moment: datetime) -> set[frozenset[str]]:
        """Who knows whom at the last relationship graph at or before `moment`."""
        graphs = sorted(path for path in self.folder.graphs.glob("*.graphml") if path.stem <= f"{moment:%Y%m%dT%H%M%S}")
        graph = nx.read_graphml(graphs[-1]) if graphs else nx.Graph()
        return {frozenset(edge) for edge in graph.edges()}


@dataclass
class Comparison:
    """Two runs compared.

    Attributes:
        a, b: The runs.
        first_difference: The index of the first event that differs (None if one log is the other's start).
        moment: The latest moment both runs reached, at which the rest is taken.
        figures: name -> (a's value, b's value) at `moment`.
        knowing: fact -> (who knows it only in a, only in b, in both).
        talked: (pairs only in a, pairs only in b).
        ties: (ties only in a, ties only in b).
    """

    a: RunView
    b: RunView
    first_difference: int | None
    moment: datetime
    figures: dict[str, tuple[float, float]] = field(default_factory=dict)
    knowing: dict[str, tuple[set[str], set[str], set[str]]] = field(default_factory=dict)
    talked: tuple[set, set] = (set(), set())
    ties: tuple[set, set] = (set(), set())

    @property
    def differ_at(self) -> str | None:
        """When the two event logs first differ (None: they never do while both run)."""
        if self.first_difference is None:
            return None
        return min(entry["time"] for entry in self.differing_entries() if entry is not None)

    def differing_entries(self) -> tuple[dict | None, dict | None]:
        """The first differing entry of each log (None where a log has ended)."""
        index = self.first_difference
        if index is None:
            return None, None
        pick = lambda events: events[index] if index < len(events) else None  # noqa: E731
        return pick(self.a.events), pick(self.b.events)


def read_run(root: Path) -> RunView:
    """A run folder read at its last checkpoint.

    Raises:
        RunFolderError: If it is not a run folder or has no checkpoint yet.
    """
    folder = RunFolder(Path(root))
    config = read_config(folder)
    snapshot = read_snapshot(folder)
    if snapshot is None:
        raise RunFolderError(f"{root}: no checkpoint yet; wait for the run's first one")
    state = snapshot.state
    events = read_events(folder.events)[: state["events"]]
    frame = pd.read_csv(folder.model_metrics, parse_dates=["time"], nrows=state["model_rows"])
    agents = pd.read_csv(folder.agent_metrics, nrows=state["agent_rows"], dtype=str, keep_default_na=True)
    return RunView(folder, config, snapshot, events, frame, agents)


def _key(entry: dict) -> tuple:
    return entry["time"], entry["agent"], entry["kind"], entry["text"]


def first_difference(a: list[dict], b: list[dict]) -> int | None:
    """The index of the first entry that differs; None when one log is the start of the other (or they are equal)."""
    for index, (left, right) in enumerate(zip(a, b, strict=False)):
        if _key(left) != _key(right):
            return index
    return None


def compare_runs(a: RunView, b: RunView) -> Comparison:
    """Where two runs first differ, and what differs at the latest moment both reached."""
    moment = min(a.snapshot.now, b.snapshot.now)
    comparison = Comparison(a, b, first_difference(a.events, b.events), moment)
    row_a, row_b = a.row_at(moment), b.row_at(moment)
    facts = [column.removeprefix("aware_") for column in a.frame.columns if column.startswith("aware_")]
    for name in (*FIGURES, *(f"aware_{fact}" for fact in facts)):
        if name in row_a and name in row_b:
            comparison.figures[name] = (float(row_a[name] or 0), float(row_b[name] or 0))
    for fact in facts:
        knows_a, knows_b = a.knowing(fact, moment), b.knowing(fact, moment)
        comparison.knowing[fact] = (knows_a - knows_b, knows_b - knows_a, knows_a & knows_b)
    talked_a, talked_b = a.talked(moment), b.talked(moment)
    comparison.talked = (talked_a - talked_b, talked_b - talked_a)
    ties_a, ties_b = a.ties(moment), b.ties(moment)
    comparison.ties = (ties_a - ties_b, ties_b - ties_a)
    return comparison
