"""Prompt caching: Anthropic's cache_control where it pays, and the share of prompt tokens a prefix cache could serve.

Providers cache prompt prefixes (OpenAI, Gemini and vLLM automatically, Anthropic where the request marks a
breakpoint), so every request of an agent starts with the same system message: the shared instructions, the persona
and the places it knows, about 1,100-1,400 tokens; the changing facts come last. A provider caches only a prefix of
at least its model's minimum (litellm's map: `prompt_cache_min_tokens`; 1,024 where it says nothing, OpenAI's and
Claude Sonnet's), and Anthropic charges 25% more to write one, so the breakpoint goes only on a system message that
long (Claude Haiku 4.5 and Opus 4.5 need 4,096: never reached). The long prefix more than doubles what a request
reads, so it goes only to models whose cache makes it cheaper than the short one (`long_prefix_pays`).
"""

import bisect
from collections.abc import Iterable, Sequence
from functools import cache

from agents.language.backends.litellm_import import import_litellm
from agents.language.tokens import count_tokens

# The smallest cacheable prefix where litellm's map states none (OpenAI's; Anthropic's for Sonnet and Opus 4.1).
MIN_CACHED_TOKENS = 1024
# The dearest a cached prompt token may be, as a share of an uncached one, for the long prefix to cost less than the
# short one: with it a town's requests read 2.36x the tokens, 66% of them cached (bench_prompt_cache.py, the 25
# agents' day: 94,164 against 39,980 per agent-day), which pays while 0.34 + 0.66 x share < 1 / 2.36, i.e. below
# 0.13. The gpt-5 family, Claude and Gemini read at 0.10; gpt-4.1 and o4-mini at 0.25 and gpt-4o at 0.50 do not pay.
MOST_CACHE_READ_SHARE = 0.13


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
    """Whether a model gets the long prefix: its provider caches one that long, at a price that makes it pay.

    A model litellm has no price for (a server of one's own) gets it: its prefix cache saves time, not money.
    """
    if min_cached_tokens(model) > MIN_CACHED_TOKENS:
        return False
    try:
        info = import_litellm().get_model_info(model)
    except Exception:  # a model litellm does not know
        return True
    price, cached = info.get("input_cost_per_token"), info.get("cache_read_input_token_cost")
    if not price:
        return True
    return cached is not None and cached <= MOST_CACHE_READ_SHARE * price


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
