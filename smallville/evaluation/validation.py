"""A judge's fact check validated out of sample: answers the pipeline produced, split before any tuning.

The set (data/evaluation/labelled/pipeline.toml) holds interview answers of real runs of the offline mind (harvested
by benchmarks/harvest_labelled.py) and answers in the styles a language model gives. Each belongs to one part, fixed
when it was written and before any judge was run on it: `development` (a judge's rules may be tuned on it) and
`held_out` (scored, never tuned on; its figures are reported as they come). Labels come from the run's provenance
where it decides (an agent never exposed to a fact cannot state it) and by hand elsewhere, with a second pass whose
agreement with the first is reported as Cohen's kappa. Precision and recall carry exact (Clopper-Pearson) intervals.
"""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from scipy import stats

from agents.language import FactChecksRequest
from smallville.evaluation.battery import BATTERIES_DIR
from smallville.evaluation.interviews import in_batches
from smallville.evaluation.labelled import Score, read_labelled_file

PIPELINE = BATTERIES_DIR / "labelled" / "pipeline.toml"
PARTS = ("development", "held_out")


class PipelineAnswer(BaseModel):
    """One answer, its fact and speaker, its part, its label and where the label came from."""

    model_config = ConfigDict(extra="forbid")
    id: str
    part: Literal["development", "held_out"]
    origin: str
    fact: str = Field(min_length=1)
    speaker: str
    question: str
    answer: str = Field(min_length=1)
    label: Literal["provenance", "hand"]
    shows: bool
    second: bool | None = None  # the second hand-labelling pass (hand labels only)

    @model_validator(mode="after")
    def _second_pass_for_hand_labels(self) -> "PipelineAnswer":
        if self.label == "hand" and self.second is None:
            raise ValueError(f"{self.id}: a hand label needs its second pass (second = true/false)")
        return self


class PipelineSet(BaseModel):
    """The whole set."""

    model_config = ConfigDict(extra="forbid")
    answers: list[PipelineAnswer] = Field(min_length=1)

    def part(self, name: str) -> list[PipelineAnswer]:
        """The answers of one part."""
        return [answer for answer in self.answers if answer.part == name]

    def unseen(self, name: str) -> list[PipelineAnswer]:
        """The answers of one part that no other part holds word for word (fact, speaker and answer).

        The offline mind says the same things in other seeds, and such an answer is not new evidence.
        """
        elsewhere = {(a.fact, a.speaker, a.answer) for a in self.answers if a.part != name}
        return [a for a in self.part(name) if (a.fact, a.speaker, a.answer) not in elsewhere]


def load_pipeline_set(path: str | Path | None = None) -> PipelineSet:
    """Read and check the set (None: the shipped one).

    Raises:
        EvaluationError: Naming the file and the field, if it is missing or malformed.
    """
    return read_labelled_file(Path(path) if path else PIPELINE, PipelineSet, PIPELINE)


def proportion_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a share; (0, 1) with no trials."""
    if not trials:
        return 0.0, 1.0
    interval = stats.binomtest(successes, trials).proportion_ci(confidence, method="exact")
    return float(interval.low), float(interval.high)


def cohen_kappa(first: list[bool], second: list[bool]) -> float:
    """Agreement of two labelling passes beyond chance (1: always agree; 0: as by chance; NaN: no labels)."""
    count = len(first)
    if not count:
        return float("nan")
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / count
    yes = (sum(first) / count) * (sum(second) / count)
    no = (1 - sum(first) / count) * (1 - sum(second) / count)
    expected = yes + no
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


@dataclass(frozen=True)
class PartScore:
    """A judge's fact check on one part: the counts, precision and recall with their intervals, and kappa."""

    part: str
    score: Score
    precision_interval: tuple[float, float]
    recall_interval: tuple[float, float]
    hand_labelled: int
    kappa: float

    def text(self) -> str:
        """One line: "held_out (40 answers): precision 0.91 [0.72, 0.99], recall ... ; kappa 0.95 on 20 hand labels"."""
        score, (p_low, p_high), (r_low, r_high) = self.score, self.precision_interval, self.recall_interval
        total = score.true_positive + score.false_positive + score.false_negative + score.true_negative
        return (
            f"{self.part} ({total} answers): precision {score.precision:.3f} [{p_low:.3f}, {p_high:.3f}], "
            f"recall {score.recall:.3f} [{r_low:.3f}, {r_high:.3f}] ({score.true_positive} right yes, "
            f"{score.false_positive} false yes, {score.false_negative} missed, {score.true_negative} right no); "
            f"kappa of the two hand passes {self.kappa:.3f} on {self.hand_labelled} hand labels"
        )


def score_parts(ask: Callable, labelled: PipelineSet, *, concurrency: int = 8) -> dict[str, PartScore]:
    """Ask a judge to fact-check every answer as `evaluate` does, a speaker's five at once; score each part apart.

    `ask(request)` answers a FactChecksRequest: an awaitable of one verdict per answer.
    """
    return asyncio.run(_score(ask, labelled, concurrency))


async def _score(ask: Callable, labelled: PipelineSet, concurrency: int) -> dict[str, PartScore]:
    gate = asyncio.Semaphore(concurrency)

    async def some(items: list[PipelineAnswer]) -> list[bool]:
        """A speaker's answers checked several at once, as `evaluate` asks its judge."""
        request = FactChecksRequest(items[0].speaker, tuple((item.question, item.answer, item.fact) for item in items))
        async with gate:
            return [bool(shows) for shows in await ask(request)]

    batches = in_batches(labelled.answers, lambda item: item.speaker)
    checked = await asyncio.gather(*(some(batch) for batch in batches))
    verdict = {
        id(item): shows
        for batch, found in zip(batches, checked, strict=True)
        for item, shows in zip(batch, found, strict=True)
    }
    scores = {part: Score() for part in PARTS}
    for item in labelled.answers:
        shows = verdict[id(item)]
        scores[item.part].add(shows, item.shows, f"[{item.id}] {item.answer}")
    found = {}
    for part, score in scores.items():
        hand = [item for item in labelled.part(part) if item.label == "hand"]
        said = score.true_positive + score.false_positive
        real = score.true_positive + score.false_negative
        found[part] = PartScore(
            part=part,
            score=score,
            precision_interval=proportion_interval(score.true_positive, said),
            recall_interval=proportion_interval(score.true_positive, real),
            hand_labelled=len(hand),
            kappa=cohen_kappa([item.shows for item in hand], [bool(item.second) for item in hand]),
        )
    return found
