"""Token counts offline, the prefix-cache share, Anthropic's cache breakpoint, and bounded repair prompts."""

import asyncio
import socket

import pytest

from agents.language.backends import ScriptedBackend
from agents.language.backends.prompt_cache import prefix_cache_share, prepare_messages, prompt_text
from agents.language.gateway import Gateway, GatewayConfig
from agents.language.request import REPAIR_EXCERPT
from agents.language.requests import DayPlanRequest, ImportanceRequest, WakeUpRequest
from agents.language.tokens import count_tokens, tokenizer_name

from ..personas import DAY, identity

ISABELLA, KLAUS = identity("Isabella Rodriguez"), identity("Klaus Mueller")


def test_tokens_are_counted_by_the_reference_tokenizer_without_the_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert tokenizer_name() == "gpt-4o-mini (o200k_base)"
    assert count_tokens("hello world, how are you today?") == 8  # chars / 4 would say 7
    assert count_tokens("Isabella Rodriguez") != len("Isabella Rodriguez") // 4
    assert count_tokens("a" * 1_000_000) > 1000  # a 1 MB text is counted (by extrapolation), not a stall


def test_a_runaway_answer_is_not_sent_back_whole_in_the_repair():
    runaway = "x" * 50_000
    backend = ScriptedBackend([runaway, '{"hour": 6}'])
    gateway = Gateway(GatewayConfig(model="scripted/x"), {"scripted/x": backend})
    assert asyncio.run(gateway.ask(WakeUpRequest(ISABELLA), "Isabella Rodriguez")) == 6
    repair = backend.calls[1][1]
    assert repair[-2] == {"role": "assistant", "content": runaway[:REPAIR_EXCERPT]}
    assert "50000 characters" in repair[-1]["content"]
    assert sum(len(message["content"]) for message in repair) < 10_000


def test_prompts_put_the_unchanging_parts_first():
    isabella = [WakeUpRequest(ISABELLA).messages(), ImportanceRequest(ISABELLA, ("a walk",)).messages()]
    assert isabella[0][0] == isabella[1][0]  # the system message (instructions and persona) is shared
    assert "Isabella Rodriguez (age" in isabella[0][0]["content"]
    assert WakeUpRequest(KLAUS).messages()[0] != isabella[0][0]


def test_prefix_cache_share():
    assert prefix_cache_share([]) == 0.0
    assert prefix_cache_share(["abcd", "abcd"]) == 0.5
    assert prefix_cache_share(["abcd", "abxy", "zzzz"]) == 2 / 12
    same_agent = [prompt_text(r.messages()) for r in (WakeUpRequest(ISABELLA), DayPlanRequest(ISABELLA, DAY, 6))]
    assert prefix_cache_share(same_agent) > 0.3  # the persona and instructions make most of the second prompt


def test_anthropic_cache_breakpoint_only_where_the_prefix_is_long_enough():
    agents = WakeUpRequest(ISABELLA).messages()  # instructions and persona: past Sonnet's 1,024, short of Haiku's 4,096
    sent = prepare_messages(agents, anthropic=True, model="anthropic/claude-sonnet-4-6")
    assert sent[0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert sent[0]["content"][0]["text"] == agents[0]["content"] and sent[1:] == agents[1:]
    assert prepare_messages(agents, anthropic=True, model="anthropic/claude-haiku-4-5") == agents
    long = [{"role": "system", "content": "word " * 5000}, agents[1]]
    assert (
        "cache_control" in prepare_messages(long, anthropic=True, model="anthropic/claude-haiku-4-5")[0]["content"][0]
    )
    assert prepare_messages(long, anthropic=False) == long


def test_offline_counts_agree_with_litellms_token_counter_for_the_reference_model():
    from agents.language.backends.litellm_import import import_litellm

    text = WakeUpRequest(ISABELLA).messages()[0]["content"]
    # The same o200k_base encoding; litellm's counter adds a token here and there of its own (4 in these 1,050).
    assert 0 <= import_litellm().token_counter(model="gpt-4o-mini", text=text) - count_tokens(text) <= 0.005 * len(text)


def test_every_agent_of_the_town_starts_its_requests_with_a_prefix_a_provider_caches():
    from agents.language.backends.prompt_cache import MIN_CACHED_TOKENS
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(scenario_name="the_ville_n25", embedder="hashing", seed_memories=False)
    prefixes = {agent.name: WakeUpRequest(agent.identity).messages()[0]["content"] for agent in model.people}
    model.close()
    assert len(prefixes) == 25 and len(set(prefixes.values())) == 25
    assert min(count_tokens(prefix) for prefix in prefixes.values()) >= MIN_CACHED_TOKENS
    for name, prefix in prefixes.items():  # the persona, then the places it knows, its home among them
        assert f"Name: {name}" in prefix and "Places the character knows\n- " in prefix


@pytest.mark.parametrize(
    ("model", "long"),
    [
        ("openai/gpt-5.4-mini", True),
        ("anthropic/claude-sonnet-4-6", False),  # its breakpoint caches the system message only: 32% dearer
        ("hosted_vllm/x", True),
        ("anthropic/claude-haiku-4-5", False),
        ("gemini/gemini-3.5-flash", False),
        ("openai/gpt-4.1-mini", False),  # cached at 25% of the price: the long prefix would cost 19% more
        ("openai/gpt-4o-mini", False),
    ],
)
def test_the_long_prefix_goes_only_to_models_whose_provider_caches_it_cheaply(model, long):
    backend = ScriptedBackend(['{"hour": 7}'])
    gateway = Gateway(GatewayConfig(model=model), backends={model: backend})
    knowing = ISABELLA.with_world({"Hobbs Cafe": {"cafe": ["piano", "behind the cafe counter"]}})
    assert asyncio.run(gateway.ask(WakeUpRequest(knowing), "Isabella Rodriguez")) == 7
    system = backend.calls[0][1][0]["content"]
    assert ("Places the character knows" in system) is long and "Name: Isabella Rodriguez" in system
    assert (count_tokens(system) > 1024) is long


def test_offline_counts_apart_the_prompt_tokens_a_providers_cache_would_serve():
    """An agent's long prefix, once sent, is what a caching model reads at the cache's price: the offline ledger says
    how much, so its tokens per agent-day can be read as a caching model's."""
    gateway = Gateway(GatewayConfig(model="offline"))
    world = {"Hobbs Cafe": {"cafe": ["piano", "behind the cafe counter"]}}
    knowing, klaus = ISABELLA.with_world(world), KLAUS.with_world(world)
    requests = [WakeUpRequest(knowing), DayPlanRequest(knowing, DAY, 7), DayPlanRequest(knowing, DAY, 8),
                WakeUpRequest(klaus), WakeUpRequest(klaus)]  # fmt: skip
    for request in requests:
        asyncio.run(gateway.ask(request, request.identity.name))
    isabella = count_tokens(requests[0].messages()[0]["content"])
    assert isabella >= 1024 > count_tokens(requests[3].messages()[0]["content"])  # Klaus's is too short to cache
    # Isabella's prefix written under each schema (the schema heads the cache key), then read in 128-token steps;
    # Klaus's never cached.
    served = 1024 + (isabella - 1024) // 128 * 128
    assert [record.cached_tokens for record in gateway.ledger.records] == [0, 0, served, 0, 0]
    assert gateway.ledger.totals().cached_tokens == served < gateway.ledger.records[2].prompt_tokens
