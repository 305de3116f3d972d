"""A litellm embedding model as the agents' embedder (`--embedder provider/model`), against the loopback server."""

import numpy as np
import pytest

from agents import make_agent_embedder
from agents.language.embeddings import EmbedderUnavailable, LiteLLMEmbedder
from smallville.cli import main
from testing import LoopbackServer


def test_vectors_come_from_the_server_normalized_in_order():
    with LoopbackServer() as server:
        embedder = LiteLLMEmbedder("openai/text-embedding-3-small", api_base=server.url)
        vectors = embedder.embed(["the cafe is busy", "Klaus is reading", "the cafe is busy"])
        assert embedder.dim == 16 and vectors.shape == (3, 16)
        assert np.linalg.norm(vectors, axis=1) == pytest.approx([1, 1, 1], abs=1e-6)
        assert np.array_equal(vectors[0], vectors[2]) and not np.array_equal(vectors[0], vectors[1])
        assert embedder.embed([]).shape == (0, 16)


def test_the_name_chooses_a_cached_litellm_embedder():
    with LoopbackServer() as server:
        embedder = make_agent_embedder("openai/text-embedding-3-small", api_base=server.url)
        first = embedder.embed(["Isabella is planning"])
        requests = server.stats.requests
        assert np.array_equal(embedder.embed(["Isabella is planning"]), first)
        assert server.stats.requests == requests  # the second time comes from the text cache


@pytest.mark.slow  # waits for the connection to fail
def test_an_unreachable_server_is_one_clear_error():
    with pytest.raises(EmbedderUnavailable, match="embedder 'openai/text-embedding-3-small'"):
        LiteLLMEmbedder("openai/text-embedding-3-small", api_base="http://127.0.0.1:9/v1", timeout_s=2)


@pytest.mark.slow
def test_simulate_with_a_litellm_embedder_and_api_base_without_a_key(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with LoopbackServer() as server:
        code = main(
            [
                "simulate", "--scenario", "the_ville_n3", "--agents", "1", "--until", "2023-02-13T00:30",
                "--llm", "openai/loopback", "--api-base", server.url, "--embedder", "openai/text-embedding-3-small",
                "--out", str(tmp_path / "run"),
            ]
        )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "run" / "memory.sqlite").is_file()
