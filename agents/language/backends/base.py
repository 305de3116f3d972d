"""The one narrow interface every model backend implements, and the errors the gateway's retry loop reads."""

from dataclasses import dataclass
from typing import Protocol

from agents.language.request import Request
from agents.language.tokens import count_tokens


@dataclass(frozen=True)
class Completion:
    """A backend's answer: the text, its token counts, and its cost (None where unknown).

    Also the prompt tokens the provider served from its prompt cache, the structured-output form asked for, the
    tokens a reasoning model spent thinking (part of completion_tokens), and why the answer ended: "length" when the
    token budget cut it off.
    """

    text: str
    prompt_tokens: int
    completion_tokens: int
    cost: float | None
    cached_tokens: int = 0
    answer_format: str = "prompt"
    reasoning_tokens: int = 0
    finish_reason: str = "stop"

    @property
    def unfinished(self) -> str | None:
        """Why the answer is unusable as it came: "empty" (no text), "cut" (its token budget ran out), else None."""
        if not self.text.strip():
            return "empty"
        return "cut" if self.finish_reason == "length" else None


class TransientError(RuntimeError):
    """A failure worth retrying: rate limit (429), server error (5xx), connection error, timeout.

    Attributes:
        retry_after: Seconds the server asked to wait before the next try (its Retry-After header), if it said.
    """

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(RuntimeError):
    """A failure no retry will fix: bad key, unknown model, malformed request."""


class Backend(Protocol):
    """Answers chat messages. The request is passed too: the offline mind answers from its fields."""

    name: str

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """One model call.

        Raises:
            TransientError: When a retry may succeed.
            PermanentError: When it will not.
        """
        ...


def estimate_tokens(text: str) -> int:
    """Tokens of a text as the reference model counts them (tokens.py), where no provider reports a count."""
    return count_tokens(text)
