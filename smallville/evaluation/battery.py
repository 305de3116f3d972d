"""The interview battery as data: categories of questions with placeholders filled per agent.

A battery is a TOML file (data/evaluation/paper.toml is the paper's), validated with pydantic so a user can write
another; a mistake gives a `BatteryError` naming the file and the field.
"""

import string
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from smallville.scenario import DATA_DIR

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
    questions: list[str] = Field(min_length=1)

    @field_validator("questions")
    @classmethod
    def _known_placeholders(cls, questions: list[str]) -> list[str]:
        return [_check_fields(question, QUESTION_FIELDS) for question in questions]


class Measures(BaseModel):
    """The end-to-end questions: about each tracked fact, and about each other agent."""

    model_config = ConfigDict(extra="forbid")
    fact_question: str = "Have you heard anything lately about a {topic}? Tell me what you know."
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
    categories: list[Category] = Field(min_length=1)
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
    try:
        return Battery.model_validate(tomllib.loads(path.read_text()))
    except tomllib.TOMLDecodeError as error:
        raise BatteryError(f"{path}: not valid TOML ({error}); fix the syntax") from error
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise BatteryError(f"{path}: field {field!r}: {first['msg']}; fix that field") from error
