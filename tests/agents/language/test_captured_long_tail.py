"""The long tail of providers, each on its first try: what litellm really sends, captured, against the provider's
documented rules (docs/models.md cites each).

litellm is pointed at the capturing loopback server by the provider's own base-URL variable (or, for Azure, by
--api-base, the flag an Azure user reaches for), so the project believes it talks to the real provider.
"""

import asyncio
import copy
import json

import pytest
from openai.lib._pydantic import _ensure_strict_json_schema

from agents.language.gateway import Gateway, GatewayConfig, ModelUnavailable
from testing import LoopbackServer
from tests.sampled_requests import sampled_requests

from .schema_nodes import ANTHROPIC_REFUSES, nodes

ALL = sampled_requests()
# Three kinds: a short one, the one with the largest schema (places as enums), and a long free text.
REQUESTS = {kind: ALL[kind] for kind in ("importance", "action", "interview")}
KEYS = ("OPENAI_API_KEY", "AZURE_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "ANTHROPIC_API_KEY",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")  # fmt: skip


def capture(model: str, monkeypatch, *, env: str | None = None, base: str = "url", effort: str = "minimal"):
    """Each of REQUESTS asked once: (kind, path, body) per request the server saw."""
    for key in KEYS:
        monkeypatch.setenv(key, "test-capture")
    monkeypatch.setenv("AWS_REGION_NAME", "us-east-1")
    monkeypatch.setenv("AZURE_API_VERSION", "2025-04-01-preview")
    sent = []
    with LoopbackServer(capture=True) as loopback:
        if env:
            monkeypatch.setenv(env, getattr(loopback, base))
        config = GatewayConfig(model=model, api_base=None if env else getattr(loopback, base), reasoning_effort=effort)
        gateway = Gateway(config)

        async def ask_each():
            for kind, request in REQUESTS.items():
                seen = len(loopback.stats.captured)
                await gateway.ask(request, "capture")
                sent.extend((kind, path, body) for path, _, body in loopback.stats.captured[seen:])
            await gateway.aclose()

        asyncio.run(ask_each())
    totals = gateway.ledger.totals()
    assert totals.fallbacks == 0 and totals.retries == 0 and len(sent) == len(REQUESTS)
    return sent


def claude_can_take(schema: dict, kind: str) -> None:
    """Claude's structured outputs refuse numeric and length constraints and minItems above 1."""
    for node, _ in nodes(schema):
        assert not set(node) & ANTHROPIC_REFUSES and node.get("minItems", 0) <= 1, kind


def test_azure_with_api_base_gets_strict_json_schema(monkeypatch):
    for kind, path, body in capture("azure/gpt-5-mini", monkeypatch, base="root"):
        assert path == "/openai/deployments/gpt-5-mini/chat/completions"
        json_schema = body["response_format"]["json_schema"]
        assert json_schema["strict"] is True, kind
        schema = json_schema["schema"]
        assert _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=schema) == schema, kind


def test_openrouter_openai_model_gets_strict_json_schema_and_no_temperature_while_reasoning(monkeypatch):
    for kind, _, body in capture("openrouter/openai/gpt-5-mini", monkeypatch, env="OPENROUTER_API_BASE"):
        assert body["model"] == "openai/gpt-5-mini" and body["response_format"]["json_schema"]["strict"] is True
        schema = body["response_format"]["json_schema"]["schema"]
        assert _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=schema) == schema, kind
        # OpenAI's reasoning models refuse a temperature other than the default: never sent beside an effort.
        assert body["reasoning_effort"] == "minimal" and "temperature" not in body, kind


def test_openrouter_claude_gets_a_schema_claude_takes_and_no_thinking_unless_asked(monkeypatch):
    for kind, _, body in capture("openrouter/anthropic/claude-haiku-4.5", monkeypatch, env="OPENROUTER_API_BASE"):
        json_schema = body["response_format"]["json_schema"]
        assert json_schema["strict"] is True
        claude_can_take(json_schema["schema"], kind)
        assert "reasoning_effort" not in body and "reasoning" not in body  # thinking off: the default effort
        assert body["temperature"] == REQUESTS[kind].temperature
    for kind, _, body in capture(
        "openrouter/anthropic/claude-haiku-4.5", monkeypatch, env="OPENROUTER_API_BASE", effort="low"
    ):
        assert body["reasoning_effort"] == "low" and "temperature" not in body, kind  # thinking takes none


def test_groq_gpt_oss_gets_only_an_effort_groq_takes(monkeypatch):
    for kind, _, body in capture("groq/openai/gpt-oss-120b", monkeypatch, env="GROQ_API_BASE"):
        assert body["reasoning_effort"] in {"low", "medium", "high"}, kind  # console.groq.com/docs/reasoning
        assert body["reasoning_effort"] == "low"  # the least it takes, for the default "minimal"


def test_bedrock_claude_gets_a_filtered_schema_and_no_thinking_unless_asked(monkeypatch):
    model = "bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0"
    for kind, path, body in capture(model, monkeypatch, env="AWS_BEDROCK_RUNTIME_ENDPOINT", base="root"):
        assert path.endswith("/converse") and "toolConfig" not in body
        text_format = body["outputConfig"]["textFormat"]
        assert text_format["type"] == "json_schema"
        claude_can_take(json.loads(text_format["structure"]["jsonSchema"]["schema"]), kind)
        assert "thinking" not in (body.get("additionalModelRequestFields") or {}), kind
        assert body["inferenceConfig"]["temperature"] == REQUESTS[kind].temperature
    for kind, _, body in capture(model, monkeypatch, env="AWS_BEDROCK_RUNTIME_ENDPOINT", base="root", effort="low"):
        assert body["additionalModelRequestFields"]["thinking"]["type"] == "enabled", kind
        assert "temperature" not in body["inferenceConfig"], kind


def test_anthropic_with_an_effort_gets_one_output_config_never_the_beta_form(monkeypatch):
    sent = capture("anthropic/claude-sonnet-4-6", monkeypatch, env="ANTHROPIC_BASE_URL", base="root", effort="low")
    for kind, _, body in sent:
        assert "output_format" not in body and "temperature" not in body, kind
        assert body["output_config"]["effort"] == "low" and body["output_config"]["format"]["type"] == "json_schema"
        claude_can_take(body["output_config"]["format"]["schema"], kind)


def test_ollama_context_holds_the_longest_prompt_and_never_shrinks(monkeypatch):
    sent = capture("ollama_chat/llama3.1", monkeypatch, base="root")
    windows = [body["options"]["num_ctx"] for _, _, body in sent]
    assert windows == sorted(windows)  # a changed num_ctx reloads the model: it only grows
    for (kind, _, body), window in zip(sent, windows, strict=True):
        prompt = sum(len(message["content"]) for message in body["messages"]) // 3  # at least this many tokens
        assert window >= prompt + body["options"]["num_predict"], kind


def test_vertex_without_google_auth_is_named_in_one_line_and_not_retried(monkeypatch):
    pytest.importorskip("litellm")
    monkeypatch.setitem(__import__("sys").modules, "google.auth", None)  # as if google-auth were not installed
    gateway = Gateway(GatewayConfig(model="vertex_ai/gemini-2.5-flash", max_retries=3))

    async def ask():
        try:
            return await gateway.ask(ALL["importance"], "capture")
        finally:
            await gateway.aclose()

    with pytest.raises(ModelUnavailable) as caught:
        asyncio.run(ask())
    assert caught.value.refused  # not a transient fault: no retry installs a package
    assert "needs the Python package google-auth" in str(caught.value) and "\n" not in str(caught.value)
    assert gateway.ledger.totals().retries == 0
