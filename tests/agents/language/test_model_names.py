"""Checking a model name before anything is built: one decision, keys from the environment, none for own servers."""

import pytest

from agents import check_embedder, check_model_name, check_models, needs_key

LOCAL_SERVER = "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("name", "api_base", "needed"),
    [
        ("offline", None, False),
        ("openai/gpt-4o-mini", None, True),
        ("openai/my-model", LOCAL_SERVER, False),
        ("anthropic/claude-haiku-4-5", None, True),
        ("ollama/llama3.1", None, False),
        ("hosted_vllm/Qwen/Qwen3-8B", None, False),
        ("lm_studio/qwen3", None, False),
    ],
    ids=["offline", "openai", "openai-at-own-server", "anthropic", "ollama", "vllm", "lm-studio"],
)
def test_which_names_need_a_key(name, api_base, needed):
    assert needs_key(name, api_base) is needed


def test_a_local_server_name_with_api_base_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_model_name("openai/my-model", api_base=LOCAL_SERVER)


def test_the_same_name_without_its_api_base_is_refused(monkeypatch):
    """What `interview --llm` did before it had the run's --api-base: refuse the server `simulate` accepted."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match="needs OPENAI_API_KEY in the environment"):
        check_model_name("openai/my-model")


def test_every_routed_model_is_checked_with_the_runs_api_base(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_models("openai/my-model", {"importance": "openai/small-model"}, api_base=LOCAL_SERVER)
    with pytest.raises(ValueError, match="'openai/small-model' needs OPENAI_API_KEY"):
        check_models("ollama/llama3.1", {"importance": "openai/small-model"})


@pytest.mark.parametrize(
    ("name", "message"),
    [("gpt4", "use 'offline' or a litellm name"), ("nosuch/model", "unknown provider 'nosuch'")],
    ids=["no-provider", "unknown-provider"],
)
def test_bad_names_are_explained(name, message):
    with pytest.raises(ValueError, match=message):
        check_model_name(name)


def test_a_missing_key_is_named_and_a_keyless_provider_needs_none(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ValueError, match="needs ANTHROPIC_API_KEY"):
        check_model_name("anthropic/claude-haiku-4-5")
    check_model_name("ollama/llama3.1")


@pytest.mark.parametrize("blank", ["", "   "], ids=["empty", "spaces"])
def test_a_key_set_to_blank_counts_as_missing(monkeypatch, blank):
    monkeypatch.setenv("OPENAI_API_KEY", blank)
    with pytest.raises(ValueError, match="needs OPENAI_API_KEY"):
        check_model_name("openai/gpt-4o-mini")


def test_a_real_key_passes_and_another_providers_blank_key_does_not_matter(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "")
    check_model_name("openai/gpt-4o-mini")


def test_an_embedder_is_checked_by_the_same_decision(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_embedder("openai/text-embedding-3-small", api_base=LOCAL_SERVER)
    with pytest.raises(ValueError, match=r"^embedder 'openai/text-embedding-3-small' needs OPENAI_API_KEY"):
        check_embedder("openai/text-embedding-3-small")
