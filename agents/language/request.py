"""Typed requests to a language model: what is asked, how the answer is parsed, and the safe fallback.

Every model call in the project is one `Request` subclass: a frozen dataclass whose fields are exactly the
facts the prompt shows (and so all that the offline mind may use), a prompt template kept readable in
prompts/<template>, a parser that validates the answer, and a fallback used when the model fails twice.
"""

import json
import re
import string
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

PROMPTS = Path(__file__).parent / "prompts"
SYSTEM_PROMPT = (
    "You are the mind of a character in a simulated town. Stay in character, be concise, and answer in "
    "exactly the format asked for."
)


class AnswerError(ValueError):
    """A model answer that does not parse or does not validate; the message says what is wrong."""


@cache
def load_template(name: str) -> string.Template:
    """Read prompts/<name> once; templates use $field placeholders so JSON examples need no escaping."""
    return string.Template((PROMPTS / name).read_text())


def extract_json(text: str) -> Any:
    """The first JSON object or array in a model answer (models wrap JSON in prose or ``` fences).

    Raises:
        AnswerError: If no JSON value can be decoded from the text.
    """
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        return value
    raise AnswerError(f"no JSON found in the answer: {text[:200]!r}")


@dataclass(frozen=True)
class Request[A](ABC):
    """One question to a language model, answered with a value of type A.

    Subclasses are frozen dataclasses that validate their fields in `validate` (called when built), name
    their `kind` (used for routing, caching and accounting) and `template`, and implement `fields`,
    `parse` and `fallback`.
    """

    kind: ClassVar[str]
    template: ClassVar[str]
    max_tokens: ClassVar[int] = 400
    temperature: ClassVar[float] = 0.7

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:  # noqa: B027 - optional hook, most requests only need their types
        """Raise ValueError if a field is out of range; called when the request is built."""

    @abstractmethod
    def fields(self) -> dict[str, str]:
        """The named template fields, rendered as text."""

    @abstractmethod
    def parse(self, text: str) -> A:
        """Parse and validate a model answer.

        Raises:
            AnswerError: If the answer does not parse or validate.
        """

    @abstractmethod
    def fallback(self) -> A:
        """A safe answer built from the request's own fields, used after a failed repair."""

    def messages(self) -> list[dict[str, str]]:
        """The chat messages for this request: the shared system prompt and the rendered template."""
        user = load_template(self.template).substitute(self.fields())
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]

    def repair_messages(self, bad_answer: str, error: str) -> list[dict[str, str]]:
        """The messages for the one repair attempt: the bad answer and what was wrong with it."""
        return [
            *self.messages(),
            {"role": "assistant", "content": bad_answer},
            {
                "role": "user",
                "content": f"That answer could not be used: {error}. Answer again, in exactly the format asked for.",
            },
        ]
