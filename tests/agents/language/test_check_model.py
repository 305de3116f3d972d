"""Checking a model name before a run: keys from the environment, none needed with a server of one's own."""

import pytest

from agents import check_model


def test_an_openai_compatible_server_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    check_model("openai/my-model", api_base="http://127.0.0.1:8000/v1")


def test_a_missing_key_is_named(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match="needs OPENAI_API_KEY in the environment"):
        check_model("openai/gpt-4o-mini")


@pytest.mark.parametrize("blank", ["", "   "], ids=["empty", "spaces"])
def test_a_key_set_to_blank_counts_as_missing(monkeypatch, blank):
    monkeypatch.setenv("OPENAI_API_KEY", blank)
    with pytest.raises(ValueError, match="needs OPENAI_API_KEY"):
        check_model("openai/gpt-4o-mini")


def test_a_real_key_passes_and_another_providers_blank_key_does_not_matter(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "")
    check_model("openai/gpt-4o-mini")
