"""A 3-agent hour against the local model server (`make local-llm`), with and without structured output.

Prints, per run: requests, model calls, the server's own token counts (prompt, completion, cached), repairs,
fallbacks, retries, structured-output downgrades, wall time and the load average, and the share of prompt tokens a
prefix cache could serve. A 135M model tests the plumbing, not believable minds. Skipped, with a message, when the
server is not running. One run per variant: each takes minutes on 2 cores.

Usage: make local-llm-serve (another shell), then .venv/bin/python benchmarks/bench_local_llm.py [minutes] [base]
"""

import functools
import os
import sys
import time
import urllib.request
from datetime import timedelta

from agents.language import gateway as gateway_module
from agents.language.backends.litellm_backend import LiteLLMBackend
from agents.language.backends.prompt_cache import prefix_cache_share, prompt_text
from smallville import model as model_module

BASE = "http://127.0.0.1:8011/v1"
MODEL = "hosted_vllm/smollm2"  # keyless; `openai/smollm2` works too
AGENTS = ["Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"]


def server_up(base: str) -> bool:
    """Whether the local server answers on its models endpoint."""
    try:
        with urllib.request.urlopen(f"{base}/models", timeout=3) as response:
            return response.status == 200
    except OSError:
        return False


def run(minutes: int, base: str, structured: bool) -> None:
    """One window of the 3-agent town against the server, one call at a time (the server has one slot)."""
    prompts: list[str] = []
    complete = LiteLLMBackend.complete

    async def recording(self, request, messages, parameters):
        prompts.append(prompt_text(messages))
        return await complete(self, request, messages, parameters)

    config = functools.partial(gateway_module.GatewayConfig, structured=structured, timeout_s=180.0, max_retries=1)
    LiteLLMBackend.complete = recording
    model_module.GatewayConfig = config
    try:
        started = time.perf_counter()
        town = model_module.SmallvilleModel(
            scenario_name="the_ville_n3", agents=AGENTS, llm=MODEL, api_base=base, embedder="hashing", max_in_flight=1
        )
        town.run_until(town.start + timedelta(minutes=minutes))
        wall = time.perf_counter() - started
    finally:
        LiteLLMBackend.complete = complete
        model_module.GatewayConfig = gateway_module.GatewayConfig
    totals = town.gateway.ledger.totals()
    downgrades = sum(getattr(backend, "format_downgrades", 0) for backend in town.gateway._backends.values())
    town.close()
    label = "structured (json_object + schema)" if structured else "prompt only"
    print(
        f"{label:34s} requests {totals.requests:3d}  calls {totals.calls:3d}  prompt tokens {totals.prompt_tokens:6d}"
        f"  completion {totals.completion_tokens:5d}  cached {totals.cached_tokens:5d}  repairs {totals.repairs:3d}"
        f"  fallbacks {totals.fallbacks:3d} ({totals.fallbacks / max(1, totals.requests):.0%})"
        f"  retries {totals.retries}  downgrades {downgrades}  wall {wall:6.1f} s"
        f"  prefix-cacheable {prefix_cache_share(prompts):.0%}  load {os.getloadavg()[0]:.1f}"
    )
    by_kind = town.gateway.ledger.by_kind()
    print("    by kind: " + ", ".join(f"{k} {t.fallbacks}/{t.requests}" for k, t in sorted(by_kind.items())))


def main(minutes: int = 60, base: str = BASE) -> None:
    if not server_up(base):
        print(f"skipped: no local model server at {base} (make local-llm, then make local-llm-serve)")
        return
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    print(f"3 agents, {minutes} simulated minutes from the scenario's start, {MODEL} at {base}, --max-in-flight 1")
    for structured in (False, True):
        run(minutes, base, structured)


if __name__ == "__main__":
    main(*(int(arg) if arg.isdigit() else arg for arg in sys.argv[1:]))
