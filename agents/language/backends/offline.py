"""The offline backend: the deterministic offline mind behind the same interface as a model."""

import hashlib
import json

from agents.language.backends.base import Completion, estimate_tokens
from agents.language.backends.prompt_cache import MIN_CACHED_TOKENS, OPENAI_CACHE_STEP, CacheRule, schema_text
from agents.language.offline import offline_answer as answer_one
from agents.language.request import Request
from agents.language.requests.batches import Batch


def offline_answer(request: Request, seed: int) -> str:
    """The offline mind's answer as JSON text; a batch of the evaluation's requests item by item, each as if alone.

    The mind (agents/language/offline/) answers single requests; a batch only sends their common parts once.
    """
    if isinstance(request, Batch):
        answers = [json.loads(offline_answer(item, seed)) for item in request.items()]
        return json.dumps({"answers": answers}, ensure_ascii=False)
    return answer_one(request, seed)


class OfflineBackend:
    """Free, instant and reproducible; tokens are estimated from the text so a run shows what a model would read.

    Of the prompt tokens, those a provider's prompt cache would serve are counted apart (`cached_tokens`), as a
    caching model reports them, by the rule the providers share (prompt_cache.py): the system message (an agent's
    long prefix, the same all day) when this run has sent it before with the same answer schema (the schema heads the
    cache key: OpenAI's prefix, Claude's breakpoint), and it is at least MIN_CACHED_TOKENS long, in OpenAI's 128-token
    steps. So the offline figures say what a caching model reads at full price. The prefixes sent are part of a
    checkpoint (`sent_prefixes`), so a resumed run counts as the uninterrupted one did.
    """

    # The rule of the system message's cache: at least 1,024 tokens, served in steps of 128.
    rule = CacheRule("offline", MIN_CACHED_TOKENS, OPENAI_CACHE_STEP)

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
            cached_tokens=self._cached(request, messages, tokens),
        )

    def _cached(self, request: Request, messages: list[dict[str, str]], tokens: list[int]) -> int:
        """The cached tokens of a long system message sent before with the same schema, else 0 (a cache write)."""
        if not messages or messages[0]["role"] != "system" or not self.rule.served(tokens[0]):
            return 0
        prefix = f"{schema_text(request.answer_schema())}\x00{messages[0]['content']}"
        key = hashlib.sha256(prefix.encode()).hexdigest()[:24]
        if key in self.sent_prefixes:
            return self.rule.served(tokens[0])
        self.sent_prefixes.add(key)
        return 0
