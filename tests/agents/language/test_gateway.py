"""The gateway against the real litellm path and a loopback OpenAI-compatible server the tests start."""

import asyncio
import logging
import time
from datetime import UTC, datetime

import pytest

from agents.language import gateway as gateway_module
from agents.language.answers import PlanBlock
from agents.language.backends import ScriptedBackend
from agents.language.backends.litellm_import import import_litellm
from agents.language.backends.providers import retry_after
from agents.language.gateway import BudgetExceeded, CacheMiss, Gateway, GatewayConfig, ModelUnavailable
from agents.language.requests import ImportanceRequest, WakeUpRequest
from testing import LoopbackServer

from ..personas import identity

ISABELLA = identity("Isabella Rodriguez")
SECRET = "sk-test-SECRET-123"


def ask_many(gateway, requests):
    return asyncio.run(gateway.ask_all([(request, "Isabella Rodriguez") for request in requests]))


@pytest.mark.slow  # waits out retries' backoff or 25 slow answers
def test_25_calls_are_in_flight_together_through_litellm(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with LoopbackServer(latency=0.3) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_in_flight=25))
        answers = ask_many(gateway, [WakeUpRequest(ISABELLA)] * 25)
        assert answers == [7] * 25
        assert server.stats.max_in_flight == 25
        assert gateway.ledger.totals().calls == 25 and gateway.ledger.totals().prompt_tokens > 0


def test_the_cap_limits_calls_in_flight():
    with LoopbackServer(latency=0.2) as server:
        gateway = Gateway(GatewayConfig(model="hosted_vllm/loopback", api_base=server.url, max_in_flight=4))
        ask_many(gateway, [WakeUpRequest(ISABELLA)] * 12)
        assert server.stats.max_in_flight == 4


@pytest.mark.slow  # waits out retries' backoff or 25 slow answers
@pytest.mark.parametrize("status", ["429", "500"], ids=["rate-limit", "server-error"])
def test_retries_stop_at_the_bound(status):
    with LoopbackServer(faults=[status] * 10) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_retries=2))
        with pytest.raises(ModelUnavailable, match="failed 3 times"):
            ask_many(gateway, [WakeUpRequest(ISABELLA)])
        assert server.stats.requests == 3  # no hidden retries in litellm or the OpenAI SDK


@pytest.mark.slow  # waits out the backoff twice
def test_a_transient_failure_is_retried_then_answered():
    with LoopbackServer(faults=["429", "500"]) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_retries=3))
        assert ask_many(gateway, [WakeUpRequest(ISABELLA)]) == [7]
        assert gateway.ledger.totals().retries == 2 and server.stats.requests == 3


@pytest.mark.slow  # waits out retries' backoff or 25 slow answers
def test_the_same_failure_met_by_many_calls_is_one_warning_and_the_rest_at_info(caplog):
    caplog.set_level(logging.INFO, logger="agents.language.gateway")
    with LoopbackServer(faults=["429"] * 4 + ["500"] * 4) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_retries=3))
        assert ask_many(gateway, [WakeUpRequest(ISABELLA)] * 4) == [7] * 4
    retried = [record for record in caplog.records if "retrying in" in record.getMessage()]
    assert len(retried) == 8 == gateway.ledger.totals().retries  # each retry is logged, and counted in the ledger
    warned = [record.getMessage() for record in retried if record.levelno == logging.WARNING]
    assert len(warned) == 2 and "HTTP 429" in warned[0] and "HTTP 500" in warned[1]  # one per kind of failure


@pytest.mark.slow  # waits for the timeout (~10 s)
def test_a_hang_ends_at_the_timeout():
    with LoopbackServer(faults=["hang"], hang_s=20) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, timeout_s=1.0, max_retries=0))
        started = time.perf_counter()
        with pytest.raises(ModelUnavailable):
            ask_many(gateway, [WakeUpRequest(ISABELLA)])
        assert time.perf_counter() - started < 10


@pytest.mark.parametrize("fault", ["malformed", "long"], ids=["malformed", "very-long"])
def test_bad_answers_from_the_server_are_repaired(fault):
    with LoopbackServer(faults=[fault]) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url))
        assert ask_many(gateway, [WakeUpRequest(ISABELLA)]) == [7]
        assert gateway.ledger.totals().repairs == 1


@pytest.mark.parametrize("fault", ["empty", "cut"])
def test_an_empty_or_cut_off_answer_is_counted_and_asked_again_not_repaired(fault):
    with LoopbackServer(faults=[fault]) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url))
        assert ask_many(gateway, [WakeUpRequest(ISABELLA)]) == [7]
        budgets = [body["max_tokens"] for body in server.stats.bodies]
    totals = gateway.ledger.totals()
    assert (totals.calls, totals.repairs, totals.fallbacks) == (2, 0, 0)
    assert (totals.empty_answers, totals.cut_answers) == ((1, 0) if fault == "empty" else (0, 1))
    assert budgets[1] == budgets[0] * (2 if fault == "cut" else 1)  # a cut answer gets twice the room


def test_cache_makes_a_second_run_free_and_replay_refuses_a_miss(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    cache = tmp_path / "cache.sqlite"
    requests = [WakeUpRequest(ISABELLA), ImportanceRequest(ISABELLA, ("a party",))]
    with LoopbackServer() as server:
        config = GatewayConfig(model="openai/loopback", api_base=server.url, cache_path=cache)
        first = Gateway(config)
        answers = ask_many(first, requests)
        first.close()
        second = Gateway(config)
        assert ask_many(second, requests) == answers
        assert server.stats.requests == 2 and second.ledger.totals().calls == 0
        assert second.ledger.totals().cache_hits == 2
        replay = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, cache_path=cache, replay=True))
        with pytest.raises(CacheMiss, match="no cached answer for a importance request of Isabella Rodriguez"):
            ask_many(replay, [ImportanceRequest(ISABELLA, ("another memory",))])
    for path in tmp_path.rglob("*"):
        assert SECRET.encode() not in path.read_bytes()
    assert SECRET not in caplog.text


def test_offline_is_deterministic_and_needs_no_network():
    answers = [ask_many(Gateway(GatewayConfig(seed=3)), [WakeUpRequest(ISABELLA)]) for _ in range(2)]
    assert answers == [[6], [6]]


def test_routing_sends_a_kind_to_its_own_model():
    scripted = ScriptedBackend(lambda request: '{"scores": [9]}')
    gateway = Gateway(GatewayConfig(routes={"importance": "scripted/small"}), backends={"scripted/small": scripted})
    assert ask_many(gateway, [ImportanceRequest(ISABELLA, ("x",)), WakeUpRequest(ISABELLA)]) == [(9,), 6]
    assert [kind for kind, _ in scripted.calls] == ["importance"]
    assert set(gateway.ledger.by_kind()) == {"importance", "wake_up"}
    assert gateway.ledger.by_agent()["Isabella Rodriguez"].calls == 2


def test_budget_stops_before_the_call_that_passes_it():
    gateway = Gateway(GatewayConfig(max_calls=2))
    ask_many(gateway, [WakeUpRequest(ISABELLA)] * 2)
    with pytest.raises(BudgetExceeded, match="2 model calls"):
        ask_many(gateway, [WakeUpRequest(ISABELLA)])


def test_unknown_price_is_counted_not_a_crash():
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback-unpriced", api_base=server.url))
        ask_many(gateway, [WakeUpRequest(ISABELLA)])
        assert gateway.ledger.totals().unknown_cost_calls == 1
        priced = Gateway(
            GatewayConfig(model="openai/loopback", api_base=server.url, prices={"openai/loopback": (1e-6, 2e-6)})
        )
        ask_many(priced, [WakeUpRequest(ISABELLA)])
        assert priced.ledger.totals().cost > 0


def test_a_model_litellm_knows_is_priced_by_its_price_map():
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model="openai/gpt-4o-mini", api_base=server.url))
        ask_many(gateway, [WakeUpRequest(ISABELLA)])
    totals = gateway.ledger.totals()
    litellm = import_litellm()
    per_prompt, per_completion = (
        litellm.model_cost["gpt-4o-mini"][key] for key in ("input_cost_per_token", "output_cost_per_token")
    )
    assert totals.unknown_cost_calls == 0
    assert totals.cost == pytest.approx(totals.prompt_tokens * per_prompt + totals.completion_tokens * per_completion)


def test_schedule_rewrite_through_litellm_keeps_the_arithmetic():
    from agents.language.requests import ScheduleRewriteRequest

    request = ScheduleRewriteRequest(ISABELLA, 600, "talking with Maria Lopez", 5, (PlanBlock("working", 55),))
    with LoopbackServer() as server:
        (blocks,) = ask_many(Gateway(GatewayConfig(model="openai/loopback", api_base=server.url)), [request])
    assert blocks[0] == PlanBlock("talking with Maria Lopez", 5) and sum(b.minutes for b in blocks) == 55


@pytest.mark.parametrize("header", ["2", "Fri, 01 Jan 2100 00:00:00 GMT"], ids=["seconds", "http-date"])
def test_a_retry_after_within_the_budget_is_waited_for_and_beyond_it_ends_the_call(header, monkeypatch):
    waits = []

    async def wait(seconds, *args):
        if seconds:  # (the client's own zero-second yields aside)
            waits.append(seconds)

    monkeypatch.setattr(gateway_module.asyncio, "sleep", wait)
    with LoopbackServer(faults=["429"], retry_after=header) as server:
        gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_retries=3))
        if header == "2":  # two seconds: more than the first backoff (0.5 s), well within the budget
            assert ask_many(gateway, [WakeUpRequest(ISABELLA)]) == [7]
            assert waits == [2.0] and gateway.ledger.totals().retries == 1
        else:  # a date decades away: the call ends at once, saying so, instead of holding the run
            with pytest.raises(ModelUnavailable, match=r"asked to wait \d+ s before trying wake_up again, more than"):
                ask_many(gateway, [WakeUpRequest(ISABELLA)])
            assert waits == [] and server.stats.requests == 1


class _Refused(Exception):
    """A provider's error as litellm raises it: the answer's headers kept on it."""

    def __init__(self, headers: dict[str, str]):
        super().__init__("429")
        self.litellm_response_headers = headers


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [({"retry-after": "7"}, 7.0), ({"retry-after": "1.5"}, 1.5),
     ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),  # OpenAI's finer header first
     ({"retry-after": "Fri, 13 Feb 2023 00:00:30 GMT"}, 30.0), ({"retry-after": "Thu, 12 Feb 2023 00:00:00 GMT"}, 0.0),
     ({"retry-after": "-3"}, 0.0), ({"retry-after": "soon"}, None), ({}, None)],
    ids=["seconds", "fraction", "milliseconds", "date", "date-past", "negative", "garbage", "none"],
)  # fmt: skip
def test_retry_after_reads_seconds_milliseconds_and_http_dates(headers, seconds):
    assert retry_after(_Refused(headers), now=datetime(2023, 2, 13, tzinfo=UTC)) == seconds
