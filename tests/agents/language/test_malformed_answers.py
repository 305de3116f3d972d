"""Any answer is survivable: an answer whose envelope is broken is retried like any fault and counted, in every wire
format litellm reads, and never taken for the provider refusing the structured-output form."""

import asyncio

import pytest

from agents.language.gateway import Gateway, GatewayConfig, ModelUnavailable
from testing import LoopbackServer
from tests.sampled_requests import sampled_requests

REQUEST = sampled_requests()["importance"]
# Each wire format: the model name, and the loopback server's base URL for it.
FORMATS = {
    "openai": ("openai/served-model", "url"),
    "anthropic": ("anthropic/claude-haiku-4-5", "root"),
    "gemini": ("gemini/gemini-2.5-flash", "gemini"),
    "ollama": ("ollama_chat/llama3.1", "root"),
}


def ask(model: str, base: str, faults: list[str], monkeypatch, **config):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("GEMINI_API_KEY", "test")
    monkeypatch.setattr("agents.language.gateway.BACKOFF_S", 0.01)  # the retry's wait is not what is tested
    with LoopbackServer(faults=faults) as server:
        gateway = Gateway(GatewayConfig(model=model, api_base=getattr(server, base), **config))

        async def once():
            try:
                return await gateway.ask(REQUEST, "Isabella")
            finally:
                await gateway.aclose()

        answer = asyncio.run(once())
    return answer, gateway


@pytest.mark.parametrize("fault", ["no_choices", "bad_usage"])
@pytest.mark.parametrize("wire", list(FORMATS))
def test_a_broken_envelope_is_retried_counted_and_keeps_the_structured_form(monkeypatch, wire, fault):
    model, base = FORMATS[wire]
    answer, gateway = ask(model, base, [fault], monkeypatch)
    assert answer == REQUEST.parse('{"scores": [5, 5]}')  # the loopback's answer, read after the fault
    record = gateway.ledger.records[-1]
    assert not record.fallback and not record.repaired
    backend = gateway.backend(model)
    assert backend.format_downgrades == 0 and backend.forms[0] == "json_schema"  # never read as a refusal
    # Anthropic's empty content is an empty answer (asked again by the gateway); every other broken envelope is a
    # malformed answer, retried and counted as one.
    if (wire, fault) == ("anthropic", "no_choices"):
        assert record.empty_answers == 1 and record.retries == 0
    elif (wire, fault) == ("anthropic", "bad_usage"):
        assert record.retries == 0  # litellm reads Anthropic's broken counts as 0: nothing to retry
    else:
        assert record.retries == 1 and backend.malformed_answers == 1
        assert record.answer_format == "json_schema"


def test_answers_that_stay_broken_end_in_one_line_as_a_failing_not_a_refusing_model(monkeypatch):
    with pytest.raises(ModelUnavailable) as caught:
        ask("openai/served-model", "url", ["bad_usage"] * 3, monkeypatch, max_retries=1)
    assert not caught.value.refused  # it may answer well later: resumable, not a wrong name or key
    message = str(caught.value)
    assert "sent an answer that could not be read" in message and "Traceback" not in message
    assert "\n" not in message
