"""From the journals to the figures: ratings and statistics of the conditions, and the end-to-end measures.

Every end-to-end measure comes with a 95% bootstrap interval over the agents (the units an evaluation samples), and
beside the run's cheap per-step estimate of the same thing (keyword matches in memory, anyone at the place),
labelled "estimate" wherever it is shown.
"""

import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from smallville.evaluation.attendance import Attendance
from smallville.evaluation.conditions import Condition
from smallville.evaluation.measures import Learned, density, hallucinations, knowing_graph, mutual_graph
from smallville.evaluation.ratings import (
    LengthBias,
    PositionBias,
    Rating,
    length_bias,
    position_bias,
    positions_of,
    rate,
)
from smallville.evaluation.statistics import Comparison, dunn, kruskal_wallis, mean_interval


@dataclass
class Results:
    """Everything `evaluate` reports."""

    conditions: list[Condition]
    ratings: list[Rating]
    mean_ranks: dict[str, float]
    kruskal: tuple[float, float]
    comparisons: list[Comparison]
    judgements: int
    bias: PositionBias
    awareness: dict[str, float]
    awareness_interval: dict[str, tuple[float, float]]
    awareness_estimate: dict[str, float]
    density: float
    density_interval: tuple[float, float]
    density_directed: float
    density_estimate: float
    hallucinated: list[dict]
    checked: int
    attendance: Attendance | None
    cascades: list[Learned] = field(default_factory=list)
    knows: list[tuple[str, str]] = field(default_factory=list)
    length: LengthBias = field(default_factory=lambda: LengthBias(0, 0.0, 0.0, 0.0))

    def measures(self) -> dict:
        """measures.json: the figures by the paper's definitions, their intervals, and the estimates beside them."""
        return {
            "awareness": self.awareness,
            "awareness_interval": {fact: list(interval) for fact, interval in self.awareness_interval.items()},
            "awareness_estimate": self.awareness_estimate,
            "relationship_density": self.density,
            "relationship_density_interval": list(self.density_interval),
            "relationship_density_directed": self.density_directed,
            "relationship_density_estimate": self.density_estimate,
            "hallucinations": len(self.hallucinated),
            "hallucination_rate": len(self.hallucinated) / self.checked if self.checked else 0.0,
            "attendance": self.attendance.as_dict() if self.attendance else {"invited": 0, "came": 0, "present": 0},
            "position_bias": {
                "rankings": self.bias.rankings,
                "kept_order": self.bias.kept_order,
                "chance": self.bias.chance,
                "first_best": self.bias.first_best,
                "first_chance": self.bias.first_chance,
            },
            "length_bias": {
                "rankings": self.length.rankings,
                "longest_first": self.length.longest_first,
                "chance": self.length.chance,
                "kendall_tau": self.length.correlation,
            },
        }


def groups_of(record: dict) -> list[list[str]]:
    """A judgement's groups of conditions, best first (a record of an older evaluation holds a plain ranking)."""
    return record.get("groups") or [[name] for name in record["ranking"]]


def clustered(records: list[dict]) -> list[list[list[list[str]]]]:
    """The rankings grouped by what they judge (one agent's answers to one question), identical repeats once.

    Repeats of a ranking are not independent: a judge shown the same answers in another order often gives the same
    ranking, and counting it twice would double the evidence (narrower sigma, smaller p-values) for nothing.
    """
    clusters: dict[tuple, list[list[list[str]]]] = {}
    for record in records:
        key = (record.get("agent"), record.get("question_id")) if "question_id" in record else (record["key"],)
        rankings = clusters.setdefault(key, [])
        groups = [sorted(group) for group in groups_of(record)]
        if groups not in rankings:
            rankings.append(groups)
    return list(clusters.values())


def condition_figures(conditions: list[Condition], judgements: list[dict]) -> tuple:
    """Ratings, mean ranks, Kruskal-Wallis, Dunn, the count, the position and length biases over the rankings.

    Rankings are clustered by agent and question (`clustered`): each distinct ranking of a cluster is one match for
    the ratings, and each cluster gives each condition one place (the mean over its distinct rankings) for the
    tests, so repeats that agree count once.
    """
    names = [condition.name for condition in conditions]
    records = [record for record in sorted(judgements, key=lambda r: r["key"])]
    records = [record for record in records if sorted(n for g in groups_of(record) for n in g) == sorted(names)]
    clusters = clustered(records)
    rankings = [groups for cluster in clusters for groups in cluster]
    ranks: dict[str, list[float]] = {name: [] for name in names}
    for cluster in clusters:
        places = [positions_of(groups) for groups in cluster]
        for name in names:
            ranks[name].append(sum(place[name] for place in places) / len(places))
    mean_ranks = {name: sum(values) / len(values) if values else float("nan") for name, values in ranks.items()}
    figures = rate(names, rankings), mean_ranks, kruskal_wallis(ranks), dunn(ranks), len(clusters)
    return (*figures, position_bias(records), length_bias(records))


def end_to_end(checks: list[dict], names: list[str], facts: list[str]) -> dict:
    """Awareness per fact and mutual density with their intervals over agents, directed density, hallucinations."""
    aware = {fact: {r["agent"] for r in checks if r["kind"] == "fact" and r["subject"] == fact and r["grounded"]}
             for fact in facts}  # fmt: skip
    awareness, intervals = {}, {}
    for fact in facts:
        mean, low, high = mean_interval([float(name in aware[fact]) for name in names])
        awareness[fact], intervals[fact] = (mean if names else 0.0), (low, high)
    directed = knowing_graph(checks, names)
    mutual = mutual_graph(directed)
    degrees = [mutual.degree(name) / (len(names) - 1) for name in names] if len(names) > 1 else []
    _, low, high = mean_interval(degrees)
    return {
        "knows": sorted(directed.edges),
        "awareness": awareness,
        "awareness_interval": intervals,
        "density": density(mutual),
        "density_interval": (low, high),
        "density_directed": density(directed),
        "hallucinated": hallucinations(checks),
        "checked": sum(1 for record in checks if record["kind"] != "attendance"),
    }


def keyword_awareness(social, facts: list[str], names: list[str], at: datetime) -> dict[str, float]:
    """The per-step estimate (a memory's text matched the fact's keywords) at `at`, for comparison."""
    share = {}
    for fact in facts:
        known = social.awareness.get(fact, {})
        share[fact] = sum(1 for name in names if name in known and known[name].since <= at) / max(1, len(names))
    return share


def estimate_at(run: Path, column: str, at: datetime, default: float) -> float:
    """A per-step estimate from the run's metrics (metrics/model.csv) at `at`: its last row by then."""
    path = run / "metrics" / "model.csv"
    if not path.is_file():
        return default
    value = default
    with path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if datetime.fromisoformat(row["time"]) > at:
                break
            if row.get(column) not in (None, ""):
                value = float(row[column])
    return value


def interval_text(value: float, interval: Sequence[float], digits: int = 2, scale: float = 1.0) -> str:
    """A value and its interval as "0.40 [0.22, 0.58]"; the bare value when the interval is a point."""
    low, high = interval
    if low == high:
        return f"{scale * value:.{digits}f}"
    return f"{scale * value:.{digits}f} [{scale * low:.{digits}f}, {scale * high:.{digits}f}]"
