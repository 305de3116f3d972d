"""Gateway benchmarks: calls per second offline; wall time of 100 calls at 300 ms latency through litellm against
the loopback server, with the in-flight cap at 25 and at 100. Run: .venv/bin/python benchmarks/bench_gateway.py"""

import asyncio
import os
import time

from agents.language.gateway import Gateway, GatewayConfig
from agents.language.requests import WakeUpRequest
from agents.persona import load_persona, load_whispers
from smallville.scenarios.scenario import DATA_DIR
from testing import LoopbackServer


def main() -> None:
    os.environ.setdefault("OPENAI_API_KEY", "sk-benchmark")
    whispers = load_whispers(DATA_DIR / "the_ville/agent_history_init_n25.csv")
    identity = load_persona(DATA_DIR / "the_ville/base_the_ville_n25/personas", "Isabella Rodriguez", whispers).identity
    requests = [(WakeUpRequest(identity), "Isabella Rodriguez")] * 2000
    gateway = Gateway(GatewayConfig())
    start = time.perf_counter()
    asyncio.run(gateway.ask_all(requests))
    print(f"offline: {len(requests) / (time.perf_counter() - start):.0f} calls/s")
    for cap in (25, 100):
        with LoopbackServer(latency=0.3) as server:
            gateway = Gateway(GatewayConfig(model="openai/loopback", api_base=server.url, max_in_flight=cap))
            asyncio.run(gateway.ask_all(requests[:5]))  # warm up litellm's provider imports
            start = time.perf_counter()
            asyncio.run(gateway.ask_all(requests[:100]))
            wall = time.perf_counter() - start
            print(
                f"100 calls at 300 ms latency, cap {cap}: {wall:.2f} s (server: {server.stats.max_in_flight} at once)"
            )


if __name__ == "__main__":
    main()
