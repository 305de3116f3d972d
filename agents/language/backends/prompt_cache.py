"""Prompt caching: Anthropic's cache_control where it pays, and the share of prompt tokens a prefix cache could serve.

Providers cache prompt prefixes (OpenAI and vLLM automatically, Anthropic where the request marks a breakpoint),
so the prompts put what does not change first: the shared instructions and the agent's persona in the system
message, the changing facts last. Anthropic caches only prefixes of at least 1,024 tokens (2,048 on its Haiku
models) and charges 25% more to write them, so the breakpoint is set only on a system message that long.
"""

import bisect
from collections.abc import Iterable, Sequence

from agents.language.tokens import count_tokens

# Anthropic's smallest cacheable prefix; Haiku models need twice as much.
ANTHROPIC_MIN_CACHED_TOKENS, ANTHROPIC_HAIKU_MIN_CACHED_TOKENS = 1024, 2048


def prepare_messages(messages: list[dict[str, str]], *, anthropic: bool = False, model: str = "") -> list[dict]:
    """The messages as sent: for Anthropic, a cache breakpoint on a system message long enough to be cached."""
    if not anthropic or not messages or messages[0]["role"] != "system":
        return messages
    least = ANTHROPIC_HAIKU_MIN_CACHED_TOKENS if "haiku" in model else ANTHROPIC_MIN_CACHED_TOKENS
    system = messages[0]["content"]
    if count_tokens(system) < least:
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
