"""The one narrow interface every model backend implements, and the errors the gateway's retry loop reads."""

from dataclasses import dataclass
from typing import Protocol

from agents.language.request import Request


@dataclass(frozen=True)
class Completion:
    """A backend's answer: the text, its token counts, and its cost (None where unknown)."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cost: float | None


class TransientError(RuntimeError):
    """A failure worth retrying: rate limit (429), server error (5xx), connection error, timeout."""


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
    """About four characters a token, the usual rule for English; used where no tokenizer is asked."""
    return max(1, len(text) // 4)
