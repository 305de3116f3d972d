"""The interview battery as data: categories of questions with placeholders filled per agent.

A battery is a TOML file (data/evaluation/paper.toml is the paper's), validated with pydantic so a user can write
another; a mistake gives a `BatteryError` naming the file and the field.
"""

import string
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from smallville.scenarios.scenario import DATA_DIR
from smallville.settings.option_types import MAX_STATEMENT_CHARS
from smallville.settings.text_files import read_data

BATTERIES_DIR = DATA_DIR / "evaluation"
DEFAULT_BATTERY = BATTERIES_DIR / "paper.toml"
# What a question may ask about; `Placeholders` fills each of these for one agent.
QUESTION_FIELDS = frozenset({"name", "first_name", "acquaintance", "stranger", "event"})


class BatteryError(ValueError):
    """A battery file that cannot be used; the message names the file, the field and the fix."""


def _check_fields(text: str, allowed: frozenset[str]) -> str:
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    unknown = sorted(names - allowed)
    if unknown:
        raise ValueError(f"unknown placeholder {{{unknown[0]}}}; use one of {', '.join(sorted(allowed))}")
    return text


class Category(BaseModel):
    """One category of questions (self-knowledge, memory, plans, reactions, reflections)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    questions: list[str] = Field(min_length=1, max_length=100)  # each asked of every agent in every condition

    @field_validator("questions")
    @classmethod
    def _known_placeholders(cls, questions: list[str]) -> list[str]:
        return [_check_fields(question, QUESTION_FIELDS) for question in questions]


class Measures(BaseModel):
    """The end-to-end questions: about each tracked fact, and about each other agent."""

    model_config = ConfigDict(extra="forbid")
    # {topic}: a noun phrase with its article, from the fact's sentence ("a bake sale": topics.py).
    fact_question: str = "Have you heard anything lately about {topic}? Tell me what you know."
    relationship_question: str = "Do you know {other}? If so, tell me who they are to you."
    fact_questions: dict[str, str] = {}

    @field_validator("fact_question")
    @classmethod
    def _topic_only(cls, text: str) -> str:
        return _check_fields(text, frozenset({"topic"}))

    @field_validator("relationship_question")
    @classmethod
    def _other_only(cls, text: str) -> str:
        return _check_fields(text, frozenset({"other"}))


class Battery(BaseModel):
    """A named set of question categories and the end-to-end questions."""

    model_config = ConfigDict(extra="forbid")
    name: str
    description: str = ""
    categories: list[Category] = Field(min_length=1, max_length=50)
    measures: Measures = Measures()

    def items(self) -> list["Question"]:
        """Every question with a stable id ("memory.3"), in the file's order."""
        return [
            Question(f"{category.name}.{index}", category.name, text)
            for category in self.categories
            for index, text in enumerate(category.questions, start=1)
        ]


@dataclass(frozen=True)
class Question:
    """One question of a battery, its placeholders not yet filled."""

    id: str
    category: str
    template: str

    def fill(self, placeholders: dict[str, str]) -> str:
        """The question as asked of one agent."""
        return self.template.format_map(placeholders)


def load_battery(path: str | Path | None = None) -> Battery:
    """Load a battery by path, or by name from data/evaluation/ (None: the paper's).

    Raises:
        BatteryError: If the file is missing, is not TOML, or a field is wrong.
    """
    path = Path(path) if path else DEFAULT_BATTERY
    if not path.suffix:
        path = BATTERIES_DIR / f"{path}.toml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in BATTERIES_DIR.glob("*.toml")))
        raise BatteryError(f"{path}: no such battery; use one of: {known}, or give a path to a .toml file")
    data = read_data(path, "battery", BatteryError, "TOML")
    try:
        battery = Battery.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise BatteryError(
            f"{path}: field {field!r}: {first['msg'].removeprefix('Value error, ')}; fix that field"
        ) from error
    _check_battery(battery, path)
    return battery


def _check_battery(battery: Battery, path: Path) -> None:
    """What the data model lets through but no interview can use: each question asked once, with words to ask.

    Raises:
        BatteryError: Naming the file, the field and the fix.
    """
    names = [category.name for category in battery.categories]
    if twice := sorted({name for name in names if names.count(name) > 1}):
        raise BatteryError(
            f"{path}: field 'categories': {twice[0]!r} twice, so its question ids ({twice[0]}.1, ...) would "
            "collide; merge the two or rename one"
        )
    texts = [(f"categories.{index}.questions.{number}", text) for index, category in enumerate(battery.categories)
             for number, text in enumerate(category.questions)]  # fmt: skip
    texts += [
        (f"measures.{name}", getattr(battery.measures, name)) for name in ("fact_question", "relationship_question")
    ]
    texts += [(f"measures.fact_questions.{fact}", text) for fact, text in battery.measures.fact_questions.items()]
    for field, text in texts:
        problem = _text_problem(text)
        if problem:
            raise BatteryError(f"{path}: field {field!r}: {problem}")
    for fact, text in battery.measures.fact_questions.items():
        try:
            _check_fields(text, frozenset())  # asked as written, for one fact: a placeholder would stay as braces
        except ValueError as error:
            raise BatteryError(f"{path}: field 'measures.fact_questions.{fact}': {error}") from None
    for index, category in enumerate(battery.categories):
        seen = set()
        for number, text in enumerate(category.questions):
            if text.strip() in seen:
                raise BatteryError(
                    f"{path}: field 'categories.{index}.questions.{number}': asked twice in {category.name}; "
                    "drop the repeat"
                )
            seen.add(text.strip())


def _text_problem(text: str) -> str:
    """What makes a question unaskable ("" if nothing): no visible words, or control characters such as NUL."""
    if not any(unicodedata.category(char)[0] not in "ZC" for char in text):
        return "the question is empty; write it out"
    if any(unicodedata.category(char) == "Cc" and char not in "\n\t" for char in text):
        return "holds a control character (such as NUL); give plain text"
    if len(text) > MAX_STATEMENT_CHARS:  # an interview question, as `run.py interview` takes one
        return f"the question has {len(text)} characters, more than {MAX_STATEMENT_CHARS}; give a shorter one"
    return ""


def check_fact_questions(battery: Battery, facts: list[str], scenario: str) -> list[str]:
    """Notes on the battery's questions for particular facts that the run's scenario does not track.

    A battery serves several towns (the paper's asks about the party and the candidacy), so such a question is not an
    error; but it is never asked in this town, and that is said rather than passed over in silence.
    """
    return [
        f"battery {battery.name}: measures.fact_questions.{fact}: scenario {scenario} tracks no fact {fact!r}, so this "
        f"question is not asked here (it tracks: {', '.join(facts) or 'none'})"
        for fact in sorted(set(battery.measures.fact_questions) - set(facts))
    ]
