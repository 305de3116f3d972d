"""Measure a judge before trusting it: its fact checks and groundings against a labelled set of interview answers.

The set (data/evaluation/labelled/answers.toml) was written as a reader labels, before any judge ran on it: each
answer says whether it shows its fact, and which of the memories shown with it support the fact. A judge is any
model the gateway can ask ("offline", or a litellm name); `judge_labelled_set` asks it every FactCheckRequest and
GroundRequest the evaluation would, and scores its answers with precision and recall (grounding: of "the answer is
grounded", over the answers that show their fact, as the evaluation only grounds those).
"""

import asyncio
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from agents.language import FactCheckRequest, GroundRequest
from smallville.evaluation.battery import BATTERIES_DIR
from smallville.evaluation.errors import EvaluationError
from smallville.settings.text_files import first_field_error

LABELLED = BATTERIES_DIR / "labelled" / "answers.toml"


class Memory(BaseModel):
    """A memory of the set's pool, and whether it supports the fact."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1)
    supports: bool


class Answer(BaseModel):
    """A labelled interview answer."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1)
    shows: bool
    kind: str
    shown: list[int] = Field(min_length=1)


class LabelledFact(BaseModel):
    """One fact, the speaker asked about it, the question, a pool of memories and the answers."""

    model_config = ConfigDict(extra="forbid")
    id: str
    fact: str
    speaker: str
    question: str
    memories: list[Memory] = Field(min_length=1)
    answers: list[Answer] = Field(min_length=1)

    @model_validator(mode="after")
    def _shown_in_pool(self) -> "LabelledFact":
        for index, answer in enumerate(self.answers):
            wrong = [number for number in answer.shown if not 1 <= number <= len(self.memories)]
            if wrong:
                raise ValueError(
                    f"answers.{index}.shown: memory {wrong[0]} is not in the pool (1 to {len(self.memories)})"
                )
        return self


class LabelledSet(BaseModel):
    """The whole set."""

    model_config = ConfigDict(extra="forbid")
    sets: list[LabelledFact] = Field(min_length=1)

    def size(self) -> int:
        """How many labelled answers."""
        return sum(len(item.answers) for item in self.sets)


def load_labelled(path: str | Path | None = None) -> LabelledSet:
    """Read and check a labelled set (None: the shipped one).

    Raises:
        EvaluationError: Naming the file and the field, if it is missing or malformed.
    """
    return read_labelled_file(Path(path) if path else LABELLED, LabelledSet, LABELLED)


def read_labelled_file[T: BaseModel](path: Path, model: type[T], example: Path) -> T:
    """A labelled set's TOML file read into its model; any mistake is one line naming the file and the field.

    Raises:
        EvaluationError: If the file is missing, not TOML, or a field is wrong.
    """
    if not path.is_file():
        raise EvaluationError(f"{path}: no such labelled set; give a .toml file like {example}")
    try:
        return model.model_validate(tomllib.loads(path.read_text()))
    except tomllib.TOMLDecodeError as error:
        raise EvaluationError(f"{path}: not valid TOML ({error}); fix the syntax") from error
    except ValidationError as error:
        raise EvaluationError(f"{path}: {first_field_error(error)}; fix that field") from error


@dataclass
class Score:
    """Counts of one binary decision against its labels, and what went wrong."""

    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    true_negative: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, predicted: bool, label: bool, what: str) -> None:
        """Count one decision; keep a line for each wrong one."""
        if predicted and label:
            self.true_positive += 1
        elif predicted:
            self.false_positive += 1
            self.errors.append(f"false yes: {what}")
        elif label:
            self.false_negative += 1
            self.errors.append(f"false no: {what}")
        else:
            self.true_negative += 1

    @property
    def precision(self) -> float:
        """Of the yeses, the share that are right (1 when there are none)."""
        said = self.true_positive + self.false_positive
        return self.true_positive / said if said else 1.0

    @property
    def recall(self) -> float:
        """Of the true yeses, the share found (1 when there are none)."""
        real = self.true_positive + self.false_negative
        return self.true_positive / real if real else 1.0

    def text(self) -> str:
        """The scores in words: "precision 0.978, recall 0.924 (133 right yes, 3 false yes, ...)"."""
        return (
            f"precision {self.precision:.3f}, recall {self.recall:.3f} ({self.true_positive} right yes, "
            f"{self.false_positive} false yes, {self.false_negative} missed, {self.true_negative} right no)"
        )


@dataclass
class JudgeScores:
    """A judge's scores on a labelled set: fact check, grounding, and the per-memory support decisions."""

    fact_check: Score
    grounding: Score
    memories: Score
    answers: int


def judge_labelled_set(
    ask: Callable, labelled: LabelledSet, *, concurrency: int = 8
) -> JudgeScores:  # a coroutine runner below
    """Ask a judge (`ask(request) -> awaitable answer`) every check of the set, and score it."""
    return asyncio.run(_judge(ask, labelled, concurrency))


async def _judge(ask: Callable, labelled: LabelledSet, concurrency: int) -> JudgeScores:
    gate = asyncio.Semaphore(concurrency)

    async def one(request):
        async with gate:
            return await ask(request)

    checks, grounds, memories = Score(), Score(), Score()
    jobs = []
    for item in labelled.sets:
        for answer in item.answers:
            shown = tuple(item.memories[number - 1].text for number in answer.shown)
            check = FactCheckRequest(item.question, answer.text, item.fact, item.speaker)
            ground = GroundRequest(item.question, answer.text, item.fact, item.speaker, shown)
            jobs.append((item, answer, one(check), one(ground)))
    results = await asyncio.gather(*(asyncio.gather(check, ground) for *_, check, ground in jobs))
    for (item, answer, *_), (shows, support) in zip(jobs, results, strict=True):
        checks.add(bool(shows), answer.shows, f"[{item.id}, {answer.kind}] {answer.text}")
        labels = [item.memories[number - 1].supports for number in answer.shown]
        if answer.shows:
            grounds.add(bool(support), any(labels), f"[{item.id}] {answer.text} with memories {answer.shown}")
        for position, (number, label) in enumerate(zip(answer.shown, labels, strict=True)):
            memories.add(position in support, label, f"[{item.id}] memory {number}: {item.memories[number - 1].text}")
    return JudgeScores(checks, grounds, memories, labelled.size())
