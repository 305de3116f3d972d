"""From the journals to the figures: ratings and statistics of the conditions, and the end-to-end measures."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from smallville.evaluation.conditions import Condition
from smallville.evaluation.measures import Attendance, Learned
from smallville.evaluation.ratings import Rating, rate
from smallville.evaluation.statistics import Comparison, dunn, kruskal_wallis


@dataclass
class Results:
    """Everything `evaluate` reports."""

    conditions: list[Condition]
    ratings: list[Rating]
    mean_ranks: dict[str, float]
    kruskal: tuple[float, float]
    comparisons: list[Comparison]
    judgements: int
    awareness: dict[str, float]
    awareness_keyword: dict[str, float]
    density: float
    hallucinated: list[dict]
    checked: int
    attendance: Attendance | None
    cascades: list[Learned] = field(default_factory=list)

    def measures(self) -> dict:
        """measures.json, exactly the fields the batch aggregator reads."""
        return {
            "awareness": self.awareness,
            "awareness_keyword": self.awareness_keyword,
            "relationship_density": self.density,
            "hallucinations": len(self.hallucinated),
            "hallucination_rate": len(self.hallucinated) / self.checked if self.checked else 0.0,
            "attendance": self.attendance.as_dict() if self.attendance else {"invited": 0, "came": 0, "present": 0},
        }


def condition_figures(conditions: list[Condition], judgements: list[dict]) -> tuple:
    """Ratings, mean ranks, Kruskal-Wallis and Dunn over the judgements that rank exactly these conditions."""
    names = [condition.name for condition in conditions]
    rankings = [record["ranking"] for record in sorted(judgements, key=lambda r: r["key"])]
    rankings = [ranking for ranking in rankings if sorted(ranking) == sorted(names)]
    ranks: dict[str, list[int]] = {name: [] for name in names}
    for ranking in rankings:
        for position, name in enumerate(ranking, start=1):
            ranks[name].append(position)
    mean_ranks = {name: sum(values) / len(values) if values else float("nan") for name, values in ranks.items()}
    return rate(names, rankings), mean_ranks, kruskal_wallis(ranks), dunn(ranks), len(rankings)


def end_to_end(checks: list[dict], names: list[str], facts: list[str]) -> tuple[dict, float, list[dict], int]:
    """Awareness per fact (grounded yes only), density of grounded acquaintance, the hallucinations, answers checked."""
    aware: dict[str, set[str]] = defaultdict(set)
    edges: set[frozenset[str]] = set()
    hallucinated = []
    for record in checks:
        if record["shows"] and not record["grounded"]:
            hallucinated.append(record)
        if not record["grounded"]:
            continue
        if record["kind"] == "fact":
            aware[record["subject"]].add(record["agent"])
        elif record["subject"] in names:
            edges.add(frozenset((record["agent"], record["subject"])))
    count = len(names)
    awareness = {fact: len(aware[fact]) / count if count else 0.0 for fact in facts}
    density = 2 * len(edges) / (count * (count - 1)) if count > 1 else 0.0
    return awareness, density, hallucinated, len(checks)


def keyword_awareness(social, facts: list[str], names: list[str], at: datetime) -> dict[str, float]:
    """The per-step keyword estimate (a memory's text matched the fact's keywords) at `at`, for comparison."""
    share = {}
    for fact in facts:
        known = social.awareness.get(fact, {})
        share[fact] = sum(1 for name in names if name in known and known[name].since <= at) / max(1, len(names))
    return share
