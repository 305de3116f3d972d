"""What litellm really sends each provider family, one request of every kind, checked against the provider's rules.

Without --api-base, litellm's own base-URL variables (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GEMINI_API_BASE) point it
at the loopback server in capture mode: the project believes it talks to OpenAI, Anthropic or Google, and picks the
forms and parameters a real user gets. With --api-base: vLLM's, llama.cpp's and ollama's servers. Each captured body
is checked against the provider's documented rules: OpenAI's with the `openai` SDK's own request types and
strict-schema helper; Anthropic's structured outputs' keyword limits; Gemini's JSON Schema subset; vLLM's json_schema
form; ollama's format.
"""

import asyncio
import copy
import json

import pytest
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from pydantic import TypeAdapter

from agents.language.backends import dialects
from agents.language.gateway import Gateway, GatewayConfig
from testing import LoopbackServer
from tests.sampled_requests import sampled_requests

from .schema_nodes import ANTHROPIC_REFUSES, nodes

REQUESTS = sampled_requests(judge=True)
OPENAI_REQUEST = TypeAdapter(CompletionCreateParamsNonStreaming)


def capture(model: str, *, env: str | None = None, base: str = "url", monkeypatch, **server) -> list[tuple]:
    """Every kind asked of a model at a capturing loopback server: (kind, path, headers, body) per request sent."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-capture")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-capture")
    monkeypatch.setenv("GEMINI_API_KEY", "test-capture")
    sent = []
    with LoopbackServer(capture=True, **server) as loopback:
        if env:
            monkeypatch.setenv(env, getattr(loopback, base))
        gateway = Gateway(GatewayConfig(model=model, api_base=None if env else getattr(loopback, base)))

        async def ask_each():
            for kind, request in REQUESTS.items():
                seen = len(loopback.stats.captured)
                await gateway.ask(request, "capture")
                sent.extend((kind, *request_) for request_ in loopback.stats.captured[seen:])
            await gateway.aclose()

        asyncio.run(ask_each())
    totals = gateway.ledger.totals()
    assert totals.fallbacks == 0 and totals.repairs == 0 and totals.retries == 0
    return sent


def test_openai_gets_strict_json_schema_in_requests_its_sdk_accepts(monkeypatch):
    sent = capture("openai/gpt-5.4-mini", env="OPENAI_BASE_URL", monkeypatch=monkeypatch)
    assert len(sent) == len(REQUESTS)
    for kind, path, headers, body in sent:
        assert path == "/v1/chat/completions" and headers["user-agent"].startswith("AsyncOpenAI/Python")
        OPENAI_REQUEST.validate_python(body)  # the SDK's own request type
        assert body["model"] == "gpt-5.4-mini" and body["reasoning_effort"] == "none"  # the least it takes
        assert "max_completion_tokens" in body and "max_tokens" not in body and body["seed"] == 0
        assert body["temperature"] == REQUESTS[kind].temperature  # at effort "none" gpt-5.4 takes one
        answer_format = body["response_format"]
        assert answer_format["type"] == "json_schema" and answer_format["json_schema"]["strict"] is True, kind
        schema = answer_format["json_schema"]["schema"]
        assert _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=schema) == schema, kind
        assert all(set(node) <= dialects.SUPPORTED[dialects.STRICT] for node, _ in nodes(schema)), kind
        assert [message["role"] for message in body["messages"]] == ["system", "user"]
        assert "authorization" not in headers  # the capture keeps no key


def test_openai_reasoning_model_gets_no_temperature_and_room_to_think(monkeypatch):
    sent = capture("openai/gpt-5-mini", env="OPENAI_BASE_URL", monkeypatch=monkeypatch)
    for kind, _, _, body in sent:
        OPENAI_REQUEST.validate_python(body)
        assert "temperature" not in body and body["reasoning_effort"] == "minimal", kind
        assert body["max_completion_tokens"] == REQUESTS[kind].max_tokens + 1024, kind


def test_anthropic_gets_structured_outputs_within_its_limits(monkeypatch):
    sent = capture("anthropic/claude-haiku-4-5", env="ANTHROPIC_BASE_URL", base="root", monkeypatch=monkeypatch)
    assert len(sent) == len(REQUESTS)
    for kind, path, _, body in sent:
        assert path == "/v1/messages", kind
        assert "seed" not in body and body["temperature"] == REQUESTS[kind].temperature and "thinking" not in body
        # The GA parameter only (platform.claude.com structured outputs: "output_format has moved to
        # output_config.format"), never the beta one beside it.
        assert "output_format" not in body and set(body["output_config"]) == {"format"}, kind
        schema = body["output_config"]["format"]["schema"]
        assert body["output_config"]["format"]["type"] == "json_schema" and "tools" not in body, kind
        for node, _ in nodes(schema):
            assert not set(node) & ANTHROPIC_REFUSES and node.get("minItems", 0) <= 1, kind
            assert len(node.get("anyOf", [])) <= 16
        # Haiku 4.5 caches 4,096 tokens or more: it gets the short prefix, and no breakpoint.
        assert isinstance(body["system"], list) and "cache_control" not in json.dumps(body["system"]), kind


def test_anthropic_sonnet_gets_the_short_prefix_its_breakpoint_would_not_pay_for(monkeypatch):
    # bench_prompt_cache.py: the long prefix with its breakpoint makes Sonnet 4.6's day 32% dearer (prompt_cache.py).
    sent = capture("anthropic/claude-sonnet-4-6", env="ANTHROPIC_BASE_URL", base="root", monkeypatch=monkeypatch)
    assert sent and all("Places the character knows" not in json.dumps(body["system"]) for *_, body in sent)
    assert all("cache_control" not in json.dumps(body["system"]) for *_, body in sent)


def test_gemini_gets_response_json_schema_in_its_subset(monkeypatch):
    sent = capture("gemini/gemini-3.5-flash", env="GEMINI_API_BASE", base="gemini", monkeypatch=monkeypatch)
    assert len(sent) == len(REQUESTS)
    for kind, path, _, body in sent:
        assert path == "/v1beta/models/gemini-3.5-flash:generateContent" and "system_instruction" in body
        config = body["generationConfig"]
        assert config["response_mime_type"] == "application/json" and config["seed"] == 0, kind
        assert config["thinkingConfig"]["thinkingLevel"] == "minimal"
        for node, _ in nodes(config["response_json_schema"]):
            assert set(node) <= dialects.SUPPORTED[dialects.GEMINI], kind


@pytest.mark.parametrize("model", ["hosted_vllm/qwen3", "openai/served-model"])
def test_vllm_and_sglang_get_the_json_schema_form_they_enforce(monkeypatch, model):
    sent = capture(model, monkeypatch=monkeypatch)
    for kind, _, _, body in sent:
        answer_format = body["response_format"]
        assert answer_format["type"] == "json_schema" and "schema" not in answer_format, kind  # never json_object
        schema = answer_format["json_schema"]["schema"]
        assert "pattern" not in json.dumps(schema) and "strict" not in answer_format["json_schema"]
        assert schema == dialects.rewrite(REQUESTS[kind].answer_schema(), dialects.GRAMMAR)


def test_llama_cpp_gets_json_object_with_the_schema_after_refusing_json_schema(monkeypatch):
    sent = capture("openai/smollm2", monkeypatch=monkeypatch, refuse_json_schema=True)
    assert sent[0][3]["response_format"]["type"] == "json_schema"  # refused once (HTTP 500), then:
    for kind, _, _, body in sent[1:]:
        assert body["response_format"] == {
            "type": "json_object",
            "schema": dialects.rewrite(REQUESTS[kind].answer_schema(), dialects.GRAMMAR),
        }, kind


def test_ollama_gets_the_schema_as_format(monkeypatch):
    sent = capture("ollama_chat/llama3.1", base="root", monkeypatch=monkeypatch)
    for kind, path, _, body in sent:
        assert path == "/api/chat" and body["format"] == dialects.rewrite(
            REQUESTS[kind].answer_schema(), dialects.GRAMMAR
        ), kind
        assert body["options"]["seed"] == 0 and body["options"]["num_predict"] == REQUESTS[kind].max_tokens
