"""Each provider's documented caching rule, the offline mind's cached count by the same rule, OpenAI's cache key.

A prompt cache keys on the answer schema as well as the messages: a request of another kind (another schema) misses
even with the same system message, and a request of the same kind hits, whatever its call's facts.
"""

import asyncio
from dataclasses import replace

import pytest

from agents.language.backends import OfflineBackend
from agents.language.backends.prompt_cache import (
    CacheReplay,
    CacheRule,
    cache_rule,
    prompt_cache_key,
    schema_text,
)
from agents.language.tokens import count_tokens

from .request_cases import REQUESTS

ACTION, IMPORTANCE = REQUESTS["action"], REQUESTS["importance"]


def sent(request) -> tuple[str, list[dict]]:
    return schema_text(request.answer_schema()), request.messages()


@pytest.mark.parametrize(
    ("shared", "served"), [(1023, 0), (1024, 1024), (1151, 1024), (1152, 1152), (2000, 1920)], ids=str
)
def test_openai_serves_a_shared_prefix_from_1024_tokens_in_steps_of_128(shared, served):
    assert cache_rule("openai/gpt-5.4-mini").served(shared) == served


def test_each_provider_gets_its_own_rule_and_minimum():
    assert cache_rule("anthropic/claude-sonnet-4-6") == CacheRule("anthropic", 1024, breakpoint=True)
    assert cache_rule("anthropic/claude-haiku-4-5").least == 4096
    assert cache_rule("gemini/gemini-3.5-flash") == CacheRule("gemini", 4096)


def test_openai_reads_an_agents_prefix_again_only_under_the_same_schema():
    cache = CacheReplay(cache_rule("openai/gpt-5.4-mini"))
    first = cache.serve(*sent(ACTION))
    other_kind = cache.serve(*sent(IMPORTANCE))  # the same system message, another schema heading the prompt
    other_places = replace(ACTION, actions=("reading a book",), places=ACTION.places[1:])
    again = cache.serve(*sent(other_places))  # the same kind, other facts: the schema stays put
    assert first.cached == 0 and other_kind.cached == 0
    system = count_tokens(ACTION.messages()[0]["content"])
    assert again.cached >= system and again.cached % 128 == 0 and again.cached < again.prompt


def test_anthropic_writes_the_breakpoint_once_then_reads_it_for_the_same_schema_and_system():
    cache = CacheReplay(cache_rule("anthropic/claude-sonnet-4-6"))
    system = count_tokens(ACTION.messages()[0]["content"])
    first, other_kind = cache.serve(*sent(ACTION)), cache.serve(*sent(IMPORTANCE))
    again = cache.serve(*sent(replace(ACTION, actions=("reading a book",))))
    assert (first.written, first.cached) == (system, 0) and (other_kind.written, other_kind.cached) == (system, 0)
    assert (again.written, again.cached) == (0, system)


def test_a_prefix_below_the_models_minimum_is_never_cached():
    cache = CacheReplay(cache_rule("anthropic/claude-haiku-4-5"))  # 4,096 tokens; the long prefix is ~1,200
    assert [cache.serve(*sent(ACTION)) for _ in range(2)][1].cached == 0


def test_the_offline_mind_counts_cached_tokens_by_the_same_rule_schema_included():
    backend = OfflineBackend()

    def cached(request):
        return asyncio.run(backend.complete(request, request.messages(), {})).cached_tokens

    assert cached(ACTION) == 0  # written
    assert cached(IMPORTANCE) == 0  # the same system message under another schema: written too
    system = count_tokens(ACTION.messages()[0]["content"])
    assert system - 128 < cached(replace(ACTION, actions=("reading a book",))) <= system
    assert cached(replace(IMPORTANCE, memories=("the stove is on",))) > 0


def test_openai_gets_one_prompt_cache_key_per_agent_and_other_providers_none(monkeypatch):
    from agents.language.backends.litellm_backend import LiteLLMBackend

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    openai = LiteLLMBackend("openai/gpt-5.4-mini")
    key = openai._options(ACTION, ACTION.messages(), {}, openai.forms[0])["prompt_cache_key"]
    assert key == openai._options(IMPORTANCE, IMPORTANCE.messages(), {}, openai.forms[0])["prompt_cache_key"]
    about_no_one = REQUESTS["conversation_summary"].messages()
    assert key != prompt_cache_key(about_no_one) and ACTION.identity.name not in key  # a digest, not the name
    for other in (LiteLLMBackend("anthropic/claude-sonnet-4-6"), LiteLLMBackend("openai/x", api_base="http://h:1")):
        assert "prompt_cache_key" not in other._options(ACTION, ACTION.messages(), {}, other.forms[0])
