"""Token counts offline, the prefix-cache share, Anthropic's cache breakpoint, and bounded repair prompts."""

import asyncio
import socket

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
    short = WakeUpRequest(ISABELLA).messages()
    assert prepare_messages(short, anthropic=True, model="anthropic/claude-sonnet-4") == short
    long = [{"role": "system", "content": "word " * 3000}, short[1]]
    sent = prepare_messages(long, anthropic=True, model="anthropic/claude-sonnet-4")
    assert sent[0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert prepare_messages(long, anthropic=False) == long


def test_offline_counts_agree_with_litellms_token_counter_for_the_reference_model():
    from agents.language.backends.litellm_backend import import_litellm

    text = WakeUpRequest(ISABELLA).messages()[0]["content"]
    # The same o200k_base encoding; litellm's counter may add a token of overhead of its own.
    assert 0 <= import_litellm().token_counter(model="gpt-4o-mini", text=text) - count_tokens(text) <= 1
