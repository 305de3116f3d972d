"""Prompt caching: each provider's documented rule, Anthropic's cache_control where it pays, OpenAI's prompt_cache_key.

Providers cache prompt prefixes, each by its own rule (`cache_rule`), and every rule keys on the structured-output
schema too: OpenAI's "structured output schema serves as a prefix to the system message" (developers.openai.com
prompt-caching guide), and a changed schema misses Claude's cache (Bedrock: repost.aws "Does Bedrock include
outputConfig in its prompt caching key"). So each request kind sends one schema that stays put (request.py), and every
request of an agent starts with the same system message: the shared instructions, the persona and the places it
knows, about 1,100-1,400 tokens; the changing facts come last.
- OpenAI: automatic, on a shared prefix of 1,024 tokens or more, in steps of 128 tokens (prompt-caching guide;
  Prompt Caching 201 cookbook), routed by a hash of the prefix and the `prompt_cache_key`, which we set per agent.
- Anthropic: up to the breakpoint the request marks, at least the model's minimum (1,024 for Sonnet 4.6, 4,096 for
  Haiku 4.5 and Opus 4.5/4.6: Anthropic's prompt-caching docs, as quoted in anthropic-sdk-python issue 1194); writing
  costs 1.25x the input price, reading 0.1x. The breakpoint goes only on a system message that long.
- Gemini: implicit, on a shared prefix of at least the model's minimum (4,096 for Gemini 3.5 Flash:
  ai.google.dev/gemini-api/docs/caching).
litellm's map gives the minimums (`prompt_cache_min_tokens`; 1,024 where it says nothing). The long prefix doubles
what a request reads, so it goes only to models whose cache makes a day cheaper than with the short one
(`long_prefix_pays`, decided per provider from bench_prompt_cache.py's figures: OpenAI's gpt-5 family, yes; Claude
and Gemini 3.5 Flash, no).
"""

import bisect
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from agents.language.backends.litellm_import import import_litellm
from agents.language.tokens import count_tokens

# The smallest cacheable prefix where litellm's map states none (OpenAI's; Anthropic's for Sonnet and Opus 4.1).
MIN_CACHED_TOKENS = 1024
# OpenAI serves a cached prefix in steps of this many tokens past the minimum (the prompt-caching guide).
OPENAI_CACHE_STEP = 128
# What the long prefix does to a 25 agents' day (bench_prompt_cache.py, 2026-11-27; one schema per request kind):
# it reads 2.09x the input tokens of the short one (89,209 against 42,704 per agent-day, schemas included), of which
# a shared-prefix cache (OpenAI's rule) reads 61%, and a breakpoint on the system message (Anthropic's) reads 45% and
# writes 15% (at 1.25x). The short prefix is never cached (under 1,024 tokens).
LONG_PREFIX_TOKENS = 2.09
PREFIX_CACHE_SHARES = {False: (0.61, 0.0), True: (0.45, 0.15)}  # breakpoint: (read, written)
# Anthropic's price of a cache write, as a share of the input price, where litellm's map states none.
CACHE_WRITE_SHARE = 1.25


@cache
def min_cached_tokens(model: str) -> int:
    """The shortest prefix the model's provider caches, in tokens (litellm's map, else MIN_CACHED_TOKENS)."""
    try:
        stated = import_litellm().get_model_info(model).get("prompt_cache_min_tokens")
    except Exception:  # a model litellm does not know
        stated = None
    return int(stated or MIN_CACHED_TOKENS)


@cache
def long_prefix_pays(model: str) -> bool:
    """Whether a model gets the long prefix: its provider caches it, and a day then costs less than with the short one.

    By the provider's rule (`cache_rule`) and the shares of a day's input it reads and writes (PREFIX_CACHE_SHARES):
    the long prefix pays while LONG_PREFIX_TOKENS x (uncached + read x read price + written x write price) < 1, prices
    as shares of the input price. So it pays on OpenAI's gpt-5 family (0.94: a cached token at 0.10), never on a
    cache of 4,096 tokens (Claude Haiku 4.5, Gemini 3.5 Flash: nothing cached), nor on Claude Sonnet 4.6, whose
    breakpoint caches the system message only (1.32), nor at 0.25 a cached token (gpt-4.1: 1.13). A model litellm has
    no price for (a server of one's own) gets it: its prefix cache saves time, not money.
    """
    rule = cache_rule(model)
    if rule.least > MIN_CACHED_TOKENS:
        return False
    try:
        info = import_litellm().get_model_info(model)
    except Exception:  # a model litellm does not know
        return True
    price = info.get("input_cost_per_token")
    if not price:
        return True
    if info.get("cache_read_input_token_cost") is None:
        return False
    read = info["cache_read_input_token_cost"] / price
    write = (info.get("cache_creation_input_token_cost") or CACHE_WRITE_SHARE * price) / price
    cached, written = PREFIX_CACHE_SHARES[rule.breakpoint]
    return LONG_PREFIX_TOKENS * (1 - cached - written + cached * read + written * write) < 1


def prepare_messages(messages: list[dict[str, str]], *, anthropic: bool = False, model: str = "") -> list[dict]:
    """The messages as sent: for Anthropic, a cache breakpoint on a system message long enough to be cached."""
    if not anthropic or not messages or messages[0]["role"] != "system":
        return messages
    system = messages[0]["content"]
    if count_tokens(system) < min_cached_tokens(model):
        return messages
    block = {"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}
    return [{"role": "system", "content": [block]}, *messages[1:]]


def _common_prefix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    index = 0
    while index < limit and a[index] == b[index]:
        index += 1
    return index


def prompt_text(messages: Sequence[dict]) -> str:
    """A chat prompt as one string, in the order a server reads it (for prefix comparisons)."""
    return "".join(f"\x00{message['role']}\x00{message['content']}" for message in messages)


def cached_prefix_chars(earlier: list[str], prompt: str) -> int:
    """Characters at the start of a prompt shared with one of the earlier prompts (kept sorted)."""
    at = bisect.bisect_left(earlier, prompt)
    best = 0
    for neighbour in earlier[max(0, at - 1) : at + 1]:
        best = max(best, _common_prefix(neighbour, prompt))
    return best


def prefix_cache_share(prompts: Iterable[str]) -> float:
    """The share of prompt tokens a prefix cache could serve: each prompt's longest prefix shared with an earlier one.

    Over all prompt text; an upper bound, as real caches evict, and round to blocks of tokens. Counted in
    characters, which tokens follow closely for a shared prefix of the same text.
    """
    earlier: list[str] = []
    shared = total = 0
    for prompt in prompts:
        shared += cached_prefix_chars(earlier, prompt)
        total += len(prompt)
        bisect.insort(earlier, prompt)
    return shared / total if total else 0.0


@dataclass(frozen=True)
class CacheRule:
    """How a provider caches a prompt: any shared prefix (OpenAI, Gemini) or only up to a breakpoint (Anthropic).

    `least` is the shortest prefix cached, `step` the granularity past it; `breakpoint`: only the system message, at
    its end, is cached (written the first time, 1.25x the price), and only with the same schema before it.
    """

    provider: str
    least: int
    step: int = 1
    breakpoint: bool = False

    def served(self, shared_tokens: int) -> int:
        """Tokens of a shared prefix the cache serves: none below the minimum, else rounded down to the step."""
        if shared_tokens < self.least:
            return 0
        return self.least + (shared_tokens - self.least) // self.step * self.step


def cache_rule(model: str) -> CacheRule:
    """The documented caching rule of a model's provider (see the module's docstring)."""
    provider = model.split("/", 1)[0]
    if provider in {"anthropic", "bedrock", "vertex_ai"} and "claude" in model:
        return CacheRule("anthropic", min_cached_tokens(model), breakpoint=True)
    if provider in {"openai", "azure"}:
        return CacheRule("openai", MIN_CACHED_TOKENS, OPENAI_CACHE_STEP)
    return CacheRule(provider, min_cached_tokens(model))


def schema_text(schema: dict | None) -> str:
    """The answer schema as the text that heads a prompt's cache key ("" for a request without one)."""
    return json.dumps(schema, sort_keys=True, ensure_ascii=False) if schema is not None else ""


@dataclass(frozen=True)
class Served:
    """What a provider's cache did with one request: its prompt tokens, those read from the cache, those written."""

    prompt: int
    cached: int
    written: int


class CacheReplay:
    """One provider's cache replayed over a run's requests in the order sent, kept warm between them.

    Its input tokens count the schema as well as the messages (providers bill the schema they inject). The cache is
    shared by all of a run's requests to the model (OpenAI's and Anthropic's are per organization); with the persona
    in the system message, a hit is on an agent's own earlier request of the same kind.
    """

    def __init__(self, rule: CacheRule):
        self.rule = rule
        self._prompts: list[str] = []  # sorted, for the longest shared prefix
        self._written: set[tuple[str, str]] = set()

    def serve(self, schema: str, messages: Sequence[dict]) -> Served:
        """Send one request (its schema's text and its messages) through the cache."""
        text = f"\x00schema\x00{schema}{prompt_text(messages)}"
        prompt = count_tokens(text)
        if self.rule.breakpoint:
            if not messages or messages[0]["role"] != "system":
                return Served(prompt, 0, 0)
            system = count_tokens(messages[0]["content"])
            if system < self.rule.least:
                return Served(prompt, 0, 0)
            key = (schema, messages[0]["content"])
            if key in self._written:
                return Served(prompt, system, 0)
            self._written.add(key)
            return Served(prompt, 0, system)
        shared = cached_prefix_chars(self._prompts, text) if self._prompts else 0
        bisect.insort(self._prompts, text)
        return Served(prompt, self.rule.served(count_tokens(text[:shared]) if shared else 0), 0)


def prompt_cache_key(messages: Sequence[dict]) -> str:
    """OpenAI's `prompt_cache_key` for a request: one per agent, a digest of its system message.

    OpenAI routes requests by the prefix's hash and this key, so an agent's requests reach the machine holding its
    prefix; requests about no one share the instructions' key.
    """
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    text = system if isinstance(system, str) else json.dumps(system)
    return "smallville-" + hashlib.sha256(text.encode()).hexdigest()[:16]
