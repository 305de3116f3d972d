"""Reasoning models: the effort each model takes, sampling values litellm would refuse left out, room to reason, and a
town of gpt-5-mini against a server that litellm believes is OpenAI's."""

import logging
from datetime import datetime

import pytest

from agents.language.backends import reasoning
from agents.language.backends.litellm_import import import_litellm
from agents.language.requests import ALL_REQUESTS
from smallville.model import SmallvilleModel
from testing import LoopbackServer

# Current reasoning models, one per provider, and the level the town's default ("minimal") becomes for each.
LEAST = [
    ("openai/gpt-5-mini", "minimal"),
    ("openai/gpt-5.4-mini", "none"),
    ("openai/o4-mini", "low"),
    ("anthropic/claude-haiku-4-5", "none"),
    ("gemini/gemini-3.5-flash", "minimal"),
    ("gpt-4.1-mini-not-reasoning", None),
]


@pytest.mark.parametrize(("model", "level"), LEAST, ids=[model for model, _ in LEAST])
def test_the_default_effort_is_the_least_each_model_takes(model, level):
    name = model if "/" in model else "openai/gpt-4.1-mini"
    assert reasoning.effort_for(name, reasoning.DEFAULT_EFFORT) == level


def test_a_model_litellm_does_not_know_to_reason_gets_nothing_added():
    for model in ("openai/gpt-4.1-mini", "hosted_vllm/qwen3", "ollama_chat/llama3.1"):
        assert reasoning.with_reasoning(model, {"temperature": 0.3, "max_tokens": 20}, "minimal") == {
            "temperature": 0.3,
            "max_tokens": 20,
        }


def test_gpt5_reasoning_takes_no_temperature_and_gets_room_to_think():
    sent = reasoning.with_reasoning("openai/gpt-5-mini", {"temperature": 0.0, "max_tokens": 20, "seed": 1}, "minimal")
    assert sent == {"max_tokens": 20 + reasoning.REASONING_ROOM["minimal"], "seed": 1, "reasoning_effort": "minimal"}
    # gpt-5.4-mini at "none" does not reason, and takes a temperature.
    sent = reasoning.with_reasoning("openai/gpt-5.4-mini", {"temperature": 0.7, "max_tokens": 20}, "minimal")
    assert sent == {"temperature": 0.7, "max_tokens": 20, "reasoning_effort": "none"}


def test_claude_thinks_only_when_asked_and_then_without_temperature_within_its_budget():
    assert reasoning.with_reasoning(
        "anthropic/claude-haiku-4-5", {"temperature": 0.3, "max_tokens": 20}, "minimal"
    ) == {
        "temperature": 0.3,
        "max_tokens": 20,
    }
    sent = reasoning.with_reasoning("anthropic/claude-haiku-4-5", {"temperature": 0.3, "max_tokens": 20}, "low")
    assert sent == {"max_tokens": 20 + 1024, "reasoning_effort": "low"}  # litellm's 1,024-token thinking budget


@pytest.mark.parametrize("effort", reasoning.LEVELS)
@pytest.mark.parametrize("model", [model for model, _ in LEAST[:-1]])
def test_litellm_accepts_every_request_kinds_parameters_at_every_effort(model, effort):
    provider, _, name = model.partition("/")
    for temperature in sorted({request.temperature for request in ALL_REQUESTS}):
        sent = reasoning.with_reasoning(model, {"temperature": temperature, "max_tokens": 200}, effort)
        mapped = import_litellm().get_optional_params(
            model=name, custom_llm_provider=provider, drop_params=False, **sent
        )  # raises UnsupportedParamsError for a value the model refuses
        thinking = mapped.get("thinking") or {}
        assert thinking.get("budget_tokens", 0) < sent["max_tokens"]  # Claude: max_tokens must exceed the budget


@pytest.mark.slow
def test_a_town_of_gpt5_mini_runs_against_a_server_litellm_believes_is_openai(monkeypatch):
    with LoopbackServer(capture=True) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-capture")
        model = SmallvilleModel(
            scenario_name="the_ville_n3",
            agents=["Isabella Rodriguez", "Klaus Mueller"],
            llm="openai/gpt-5-mini",
            embedder="hashing",
            seconds_per_step=60,
        )
        model.run_until(datetime(2023, 2, 13, 7, 30))
        model.close()
    captured = server.stats.captured
    totals = model.gateway.ledger.totals()
    assert totals.calls == len(captured) > 10 and totals.fallbacks == 0 and totals.retries == 0
    assert totals.reasoning_tokens == 64 * totals.calls  # the server's reasoning tokens reach the ledger
    for path, _, body in captured:
        assert path == "/v1/chat/completions" and body["model"] == "gpt-5-mini"
        assert "temperature" not in body and body["reasoning_effort"] == "minimal"
        assert body["max_completion_tokens"] >= reasoning.REASONING_ROOM["minimal"]
        assert body["response_format"]["json_schema"]["strict"] is True
    for agent in model.people:
        assert agent.action is not None and model.ville.has_address(agent.action.address)


def test_gemini_3_thinks_at_its_least_level_without_a_temperature():
    sent = reasoning.with_reasoning("gemini/gemini-3.5-flash", {"temperature": 0.3, "max_tokens": 20}, "minimal")
    assert sent == {"max_tokens": 20 + reasoning.REASONING_ROOM["minimal"], "reasoning_effort": "minimal"}


def test_asking_litellm_what_gemini_3_takes_does_not_warn(caplog):
    """litellm warns of a Gemini 3 temperature even when only asked how it would map one: the check asks without."""
    reasoning._mapped.cache_clear()
    with caplog.at_level(logging.WARNING, logger="LiteLLM"):
        for temperature in (0.0, 0.3, 0.7):
            reasoning.with_reasoning("gemini/gemini-3.5-flash", {"temperature": temperature, "max_tokens": 20}, "low")
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []
