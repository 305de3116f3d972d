"""Every provider family litellm routes, against the loopback server's wire formats: parameters, refusals, usage."""

import asyncio

import pytest

from agents.language.backends import providers
from agents.language.backends.litellm_backend import LiteLLMBackend
from agents.language.backends.litellm_import import import_litellm
from agents.language.gateway import Gateway, GatewayConfig, ModelUnavailable
from agents.language.requests import ImportanceRequest, WakeUpRequest
from testing import LoopbackServer, free_port

from ..personas import identity

ISABELLA = identity("Isabella Rodriguez")
# (litellm model name, which base URL of the server it takes, whether the provider honours `seed`)
FAMILIES = [
    ("openai/loopback", "url", True),
    ("hosted_vllm/loopback", "url", True),
    ("ollama_chat/loopback", "root", True),
    ("anthropic/claude-haiku-4-5", "root", False),
]


def ask(gateway, requests):
    return asyncio.run(gateway.ask_all([(request, "Isabella Rodriguez") for request in requests]))


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-loopback")


@pytest.mark.parametrize(("model", "base", "seeded"), FAMILIES, ids=[f[0].split("/")[0] for f in FAMILIES])
def test_each_family_answers_on_the_first_try_with_only_its_parameters(keys, model, base, seeded):
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model=model, api_base=getattr(server, base), seed=7))
        memories = ("brushing teeth", "a party invitation")
        assert ask(gateway, [WakeUpRequest(ISABELLA), ImportanceRequest(ISABELLA, memories)]) == [7, (5, 5)]
        bodies = server.stats.bodies
    totals = gateway.ledger.totals()
    assert totals.calls == 2 and totals.retries == 0 and totals.repairs == 0
    sent_seed = ["seed" in body or "seed" in body.get("options", {}) for body in bodies]
    assert sent_seed == [seeded, seeded]
    # Tokens are the server's own counts (the loopback counts with the reference tokenizer), not the client's.
    assert totals.prompt_tokens > 100 and totals.completion_tokens > 0


def test_anthropic_is_never_sent_seed():
    kept = providers.accepted("anthropic/claude-haiku-4-5", {"seed": 1, "temperature": 0.5, "max_tokens": 9})
    assert kept == {"temperature": 0.5, "max_tokens": 9}
    assert providers.accepted("hosted_vllm/x", {"seed": 1, "temperature": None}) == {"seed": 1}


def test_litellms_unsupported_parameter_error_becomes_one_line():
    litellm = import_litellm()
    error = litellm.UnsupportedParamsError(
        message="anthropic does not support parameters: ['seed', 'logit_bias'], for model=claude-haiku-4-5. To drop "
        "these, set `litellm.drop_params=True`.",
        status_code=400,
    )
    line = providers.refusal_line("anthropic/claude-haiku-4-5", error)
    assert line == (
        "model 'anthropic/claude-haiku-4-5' does not accept the parameter(s) seed, logit_bias; leave them out or "
        "pick another model"
    )
    assert not providers.is_transient(error, litellm)


def test_a_refused_parameter_stops_at_once_with_one_line_naming_model_and_parameter():
    with LoopbackServer(refuse_params=("seed",)) as server:
        gateway = Gateway(GatewayConfig(model="hosted_vllm/picky", api_base=server.url, max_retries=3))
        with pytest.raises(ModelUnavailable) as raised:
            ask(gateway, [WakeUpRequest(ISABELLA)])
        assert server.stats.requests == 1  # a 400 is the provider's final word: no retries
    message = str(raised.value)
    assert "\n" not in message and "'hosted_vllm/picky'" in message and "'seed'" in message
    assert "HTTP 400" in message and "wake_up" in message


@pytest.mark.parametrize(("status", "transient"), [(400, False), (401, False), (404, False), (408, True),
                                                    (429, True), (500, True), (503, True)])  # fmt: skip
def test_only_timeouts_rate_limits_and_server_errors_are_retried(status, transient):
    error = RuntimeError("x")
    error.status_code = status
    assert providers.is_transient(error, import_litellm()) is transient


def test_a_server_refusing_json_schema_gets_the_next_weaker_form_once(keys):
    with LoopbackServer(refuse_json_schema=True) as server:
        backend = LiteLLMBackend("openai/gpt-4o-mini", api_base=server.url)
        backend.forms = [providers.JSON_SCHEMA, providers.JSON_OBJECT, providers.PROMPT_ONLY]  # as OpenAI's own
        gateway = Gateway(
            GatewayConfig(model="openai/gpt-4o-mini", api_base=server.url), {"openai/gpt-4o-mini": backend}
        )
        assert ask(gateway, [WakeUpRequest(ISABELLA)]) == [7]
        assert ask(gateway, [WakeUpRequest(ISABELLA)]) == [7]
        sent = [body.get("response_format", {}).get("type") for body in server.stats.bodies]
    assert sent == ["json_schema", "json_object", "json_object"]  # one refusal, then the weaker form from then on
    assert backend.format_downgrades == 1 and gateway.ledger.totals().retries == 0
    assert [record.answer_format for record in gateway.ledger.records] == ["json_object", "json_object"]


def test_structured_output_can_be_switched_off(keys):
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model="hosted_vllm/x", api_base=server.url, structured=False))
        ask(gateway, [WakeUpRequest(ISABELLA)])
        assert "response_format" not in server.stats.bodies[-1]


@pytest.mark.parametrize(
    ("model", "api_base", "forms", "wire"),
    [
        ("hosted_vllm/x", "http://127.0.0.1:1/v1", ("json_schema", "json_object", "prompt"), "json_schema"),
        ("openai/smollm2", "http://127.0.0.1:1/v1", ("json_schema", "json_object", "prompt"), "json_schema"),
        ("openai/gpt-5.4-mini", None, ("json_schema", "prompt"), "json_schema strict"),
        ("ollama_chat/llama3.1", None, ("json_schema", "prompt"), "format"),
        ("anthropic/claude-haiku-4-5", None, ("json_schema", "prompt"), "output_config.format"),
        ("anthropic/claude-3-haiku-20240307", None, ("json_schema", "prompt"), "tool"),
        ("gemini/gemini-3.5-flash", None, ("json_schema", "prompt"), "response_json_schema"),
        ("gemini/gemini-2.0-flash", None, ("prompt",), "prompt"),  # shut down: litellm no longer knows it
    ],
)
def test_each_provider_gets_the_structured_form_it_enforces(model, api_base, forms, wire):
    assert providers.structured_forms(model, api_base) == forms
    assert providers.wire_form(model, forms[0], api_base) == wire


@pytest.mark.parametrize(("model", "base"), [("openai/loopback", "url"), ("anthropic/claude-haiku-4-5", "root")])
def test_provider_usage_with_cached_tokens_reaches_the_ledger(keys, model, base):
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model=model, api_base=getattr(server, base)))
        ask(gateway, [WakeUpRequest(ISABELLA)])
        ask(gateway, [ImportanceRequest(ISABELLA, ("a walk",))])  # shares the system prompt and persona
    first, second = gateway.ledger.records
    assert first.cached_tokens == 0
    assert 100 < second.cached_tokens < second.prompt_tokens  # the persona prefix, as the server reports it
    assert gateway.ledger.totals().cached_tokens == second.cached_tokens


@pytest.mark.parametrize(("model", "path"), [(name, "/v1" if where == "url" else "") for name, where, _ in FAMILIES])
def test_a_server_that_is_not_there_is_named_in_one_line(keys, model, path, monkeypatch):
    monkeypatch.setattr("agents.language.gateway.BACKOFF_S", 0.01)  # the retry's wait is not what is tested
    base = f"http://127.0.0.1:{free_port()}{path}"
    gateway = Gateway(GatewayConfig(model=model, api_base=base, max_retries=1))
    with pytest.raises(ModelUnavailable) as raised:
        ask(gateway, [WakeUpRequest(ISABELLA)])
    message = str(raised.value)
    assert "\n" not in message and "failed 2 times" in message  # worth a retry: the server may be starting
    assert f"model {model!r} could not reach its server at {base} (Connection refused); check that it runs, " in message


def test_an_unreachable_servers_line_leaves_the_credentials_of_its_url_out():
    refused = ConnectionRefusedError(111, "Connect call failed ('10.0.0.7', 8000)")
    try:
        try:
            raise refused
        except OSError as socket_error:
            raise RuntimeError("Connection error.") from socket_error
    except RuntimeError as error:
        line = providers.refusal_line("openai/x", error, transient=True, api_base="https://me:s3cret@10.0.0.7:8000/v1")
    assert line == (
        "model 'openai/x' could not reach its server at https://10.0.0.7:8000/v1 (Connection refused); check that it "
        "runs, --api-base and the network"
    )
