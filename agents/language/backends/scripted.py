"""A scripted backend for tests: answers from a list, or from a function of the request."""

from collections.abc import Callable, Iterable

from agents.language.backends.base import Completion, estimate_tokens
from agents.language.request import Request


class ScriptedBackend:
    """Replays given answers in order (or computes them), counting the calls it received."""

    name = "scripted"

    def __init__(self, answers: Iterable[str | Exception] | Callable[[Request], str]):
        self._answer = answers if callable(answers) else None
        self._queue = [] if callable(answers) else list(answers)
        self.calls: list[tuple[str, list[dict[str, str]]]] = []

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """The next scripted answer; an Exception in the script is raised instead."""
        del parameters
        self.calls.append((request.kind, messages))
        answer = self._answer(request) if self._answer else self._queue.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return Completion(answer, sum(estimate_tokens(m["content"]) for m in messages), estimate_tokens(answer), 0.0)
