"""Prompt caching: Anthropic's cache_control where it pays, and the share of prompt tokens a prefix cache could serve.

Providers cache prompt prefixes (OpenAI, Gemini and vLLM automatically, Anthropic where the request marks a
breakpoint), so every request of an agent starts with the same system message: the shared instructions, the persona
and the places it knows, about 1,100-1,400 tokens; the changing facts come last. A provider caches only a prefix of
at least its model's minimum (litellm's map: `prompt_cache_min_tokens`; 1,024 where it says nothing, OpenAI's and
Claude Sonnet's), and Anthropic charges 25% more to write one, so the breakpoint goes only on a system message that
long (Claude Haiku 4.5 and Opus 4.5 need 4,096: never reached).
"""

import bisect
from collections.abc import Iterable, Sequence
from functools import cache

from agents.language.tokens import count_tokens

# The smallest cacheable prefix where litellm's map states none (OpenAI's; Anthropic's for Sonnet and Opus 4.1).
MIN_CACHED_TOKENS = 1024


@cache
def min_cached_tokens(model: str) -> int:
    """The shortest prefix the model's provider caches, in tokens (litellm's map, else MIN_CACHED_TOKENS)."""
    from agents.language.backends.litellm_backend import import_litellm  # noqa: PLC0415 - litellm: 3 s

    try:
        stated = import_litellm().get_model_info(model).get("prompt_cache_min_tokens")
    except Exception:  # a model litellm does not know
        stated = None
    return int(stated or MIN_CACHED_TOKENS)


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
