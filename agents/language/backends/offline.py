"""The offline backend: the deterministic offline mind behind the same interface as a model."""

import hashlib

from agents.language.backends.base import Completion, estimate_tokens
from agents.language.backends.prompt_cache import MIN_CACHED_TOKENS
from agents.language.offline import offline_answer
from agents.language.request import Request


class OfflineBackend:
    """Free, instant and reproducible; tokens are estimated from the text so a run shows what a model would read.

    Of the prompt tokens, those a provider's prompt cache would serve are counted apart (`cached_tokens`), as a
    caching model reports them: a system message of at least MIN_CACHED_TOKENS that this run has sent before (an
    agent's long prefix, the same all day), as Anthropic's breakpoint and, to within its 128-token steps, OpenAI's
    automatic cache serve it. So the offline figures say what a caching model reads at full price. The messages sent
    are part of a checkpoint (`sent_prefixes`), so a resumed run counts as the uninterrupted one did.
    """

    name = "offline"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.sent_prefixes: set[str] = set()  # digests of the long system messages sent so far

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """The offline mind's answer to the request (it reads the request's fields, the prompt's facts)."""
        del parameters
        text = offline_answer(request, self.seed)
        tokens = [estimate_tokens(message["content"]) for message in messages]
        return Completion(
            text=text,
            prompt_tokens=sum(tokens),
            completion_tokens=estimate_tokens(text),
            cost=0.0,
            cached_tokens=self._cached(messages, tokens),
        )

    def _cached(self, messages: list[dict[str, str]], tokens: list[int]) -> int:
        """The tokens of a long system message sent before (the cache's hit), else 0 (its first sending: a write)."""
        if not messages or messages[0]["role"] != "system" or tokens[0] < MIN_CACHED_TOKENS:
            return 0
        key = hashlib.sha256(messages[0]["content"].encode()).hexdigest()[:24]
        if key in self.sent_prefixes:
            return tokens[0]
        self.sent_prefixes.add(key)
        return 0
