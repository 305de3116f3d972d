"""The embedder flag: local embedders by the one decision (memory.is_local_embedder), models through litellm."""

import pytest

from agents import check_embedder, make_agent_embedder
from memory import LOCAL_EMBEDDERS, BatchingEmbedder


@pytest.mark.parametrize("name", LOCAL_EMBEDDERS)
def test_a_local_embedder_needs_no_key_even_without_a_server(monkeypatch, name):
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    check_embedder(name)


def test_a_local_name_gets_memorys_own_shared_embedder():
    embedder = make_agent_embedder("hashing")
    assert embedder is make_agent_embedder("hashing")
    assert isinstance(embedder, BatchingEmbedder) and embedder.name == "hashing" and embedder.dim == 384


@pytest.mark.parametrize("name", ["bert-huge", "MiniLM"], ids=["unknown", "wrong-case"])
def test_a_name_neither_local_nor_a_models_is_refused_with_both_choices(name):
    check_embedder(name)  # left to the builder, which names the choices
    with pytest.raises(ValueError, match=f"unknown embedder '{name}': use one of minilm, hashing or a litellm"):
        make_agent_embedder(name)
