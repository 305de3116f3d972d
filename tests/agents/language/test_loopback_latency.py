"""The loopback server's latency spread (benchmarks/bench_engine.py --latency-spread): a hosted model's spread,
repeatable run to run."""

import json
import statistics
import time
import urllib.request

from testing import LoopbackServer, call_latency


def test_no_spread_is_the_latency_itself():
    assert call_latency(0.3, 0.0, ["any text"]) == 0.3


def test_a_request_waits_as_long_in_every_run_and_the_draws_spread_around_the_median():
    assert call_latency(0.3, 0.5, ["system", "the same prompt"]) == call_latency(
        0.3, 0.5, ["system", "the same prompt"]
    )
    draws = sorted(call_latency(0.3, 0.5, ["system", f"prompt {index}"]) for index in range(2000))
    assert 0.27 < statistics.median(draws) < 0.33
    assert 1.9 < draws[int(0.95 * len(draws))] / 0.3 < 2.7  # exp(0.5 x 1.645) = 2.28
    assert draws[0] < 0.3 < draws[-1]


def test_the_server_answers_after_its_draw():
    messages = [{"role": "system", "content": "You are Isabella."}, {"role": "user", "content": "When do you wake?"}]
    wait = call_latency(0.05, 1.0, [message["content"] for message in messages])
    assert wait > 0.2  # this request's draw: a server that ignored the spread would answer at 0.05 s
    with LoopbackServer(latency=0.05, latency_spread=1.0) as server:
        request = urllib.request.Request(
            f"{server.url}/chat/completions",
            data=json.dumps({"model": "loopback", "messages": messages}).encode(),
            headers={"Content-Type": "application/json"},
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        assert time.perf_counter() - started >= wait
