"""What prompt caching saves per agent-day: the cacheable share of the prompts, and the cost with and without it.

An offline day of the town (its prompts are the ones a real model would get: the same requests, the same messages)
records every request's messages per agent. Each provider's cache is then replayed over them, with litellm's prices:
- OpenAI caches automatically the longest prefix a prompt shares with an earlier one, once it is 1,024 tokens or
  more, in steps of 128 tokens, at the model's cache-read price;
- Anthropic caches the system message at the breakpoint the project sets (prompt_cache.prepare_messages) when it
  reaches the model's minimum: the first request of an agent with it writes it (1.25x the input price), the later
  ones read it (0.1x).
Caches are assumed to stay warm between an agent's requests (5 minutes on both providers: an agent of a real-model
town asks about once a minute; a colder cache saves less). Completion tokens are priced the same either way.
Each request is recorded in both forms the gateway sends (request.long_prefix): the long prefix (instructions,
persona, places known: for models whose provider caches it) and the short one (short instructions and persona, the
project's prompts before the long prefix), so the figures compare the two.
Run: .venv/bin/python benchmarks/bench_prompt_cache.py [scenario] [days] [model ...]
"""

import argparse
import os
import time
from collections import defaultdict
from datetime import timedelta

from agents.language.backends.litellm_backend import import_litellm
from agents.language.backends.prompt_cache import cached_prefix_chars, long_prefix_pays, min_cached_tokens, prompt_text
from agents.language.request import long_prefix
from agents.language.tokens import count_tokens
from smallville.model import SmallvilleModel

MODELS = ("openai/gpt-5.4-mini", "anthropic/claude-sonnet-4-6")
# OpenAI caches in steps of this many tokens past its 1,024-token minimum.
OPENAI_CACHE_STEP = 128


def record_day(scenario: str, days: float) -> tuple[dict[bool, dict[str, list[list[dict]]]], SmallvilleModel, float]:
    """Every request's messages of an offline run in both forms (long prefix: True), per agent, in the order asked;
    the model; the wall time."""
    started = time.perf_counter()
    model = SmallvilleModel(scenario_name=scenario, embedder="hashing", rng=0)
    asked: dict[bool, dict[str, list[list[dict]]]] = {True: defaultdict(list), False: defaultdict(list)}
    ask = model.gateway.ask

    async def recording(request, agent):
        for form, kept in asked.items():
            with long_prefix(form):
                kept[agent].append(request.messages())
        return await ask(request, agent)

    model.gateway.ask = recording
    model.run_until(model.start + timedelta(days=days))
    model.close()
    return asked, model, time.perf_counter() - started


def openai_cached(earlier: list[str], prompt: str) -> int:
    """Prompt tokens OpenAI would serve from its cache: the shared prefix, if 1,024 tokens or more, in 128 steps."""
    shared = count_tokens(prompt[: cached_prefix_chars(earlier, prompt)]) if earlier else 0
    return 0 if shared < 1024 else 1024 + (shared - 1024) // OPENAI_CACHE_STEP * OPENAI_CACHE_STEP


def replay(model_name: str, asked: dict[str, list[list[dict]]]) -> dict[str, float]:
    """Prompt tokens, cached tokens, cache writes and their costs over every agent's requests, for one model."""
    prices = import_litellm().get_model_info(model_name)
    base = prices["input_cost_per_token"]
    read = prices.get("cache_read_input_token_cost") or base
    write = prices.get("cache_creation_input_token_cost") or base
    anthropic = model_name.startswith("anthropic/")
    least = min_cached_tokens(model_name)
    totals = defaultdict(float)
    seen: list[str] = []  # OpenAI: one cache for the organization, shared by every agent's prompts
    for requests in asked.values():
        written: set[str] = set()  # Anthropic: the breakpoints written for this agent
        for messages in requests:
            text = prompt_text(messages)
            prompt = count_tokens(text)
            if anthropic:
                system = messages[0]["content"]
                prefix = count_tokens(system) if messages[0]["role"] == "system" else 0
                cached = prefix if prefix >= least and system in written else 0
                writes = prefix if prefix >= least and system not in written else 0
                written.add(system)
            else:
                cached, writes = openai_cached(seen, text), 0
                seen.append(text)
                seen.sort()
            totals["prompt"] += prompt
            totals["cached"] += cached
            totals["writes"] += writes
            totals["cost_without"] += prompt * base
            totals["cost_with"] += (prompt - cached - writes) * base + cached * read + writes * write
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default="the_ville_n25")
    parser.add_argument("days", nargs="?", type=float, default=1.0)
    parser.add_argument("models", nargs="*", default=MODELS)
    arguments = parser.parse_args()
    both, model, wall = record_day(arguments.scenario, arguments.days)
    agent_days = len(both[True]) * arguments.days
    requests = sum(map(len, both[True].values()))
    prefixes = [count_tokens(messages[0]["content"]) for requests_ in both[True].values() for messages in requests_]
    print(f"{arguments.scenario}, {arguments.days:g} day(s) offline in {wall:.1f} s (load {os.getloadavg()[0]:.2f}): "
          f"{requests} requests, {requests / agent_days:.1f} per agent-day")  # fmt: skip
    print(f"system prefix {min(prefixes)}-{max(prefixes)} tokens (median {sorted(prefixes)[len(prefixes) // 2]})")
    completion = model.gateway.ledger.totals().completion_tokens / agent_days
    for name in arguments.models:
        answers = completion * import_litellm().get_model_info(name)["output_cost_per_token"]
        sent = long_prefix_pays(name)  # the gateway's choice of form (Gateway.ask)
        print(f"{name} (cache minimum {min_cached_tokens(name)} tokens; sent the {'long' if sent else 'short'} prefix),"
              f" per agent-day, answers ${answers:.4f} either way:")  # fmt: skip
        for form, label in ((False, "short prefix"), (True, "long prefix ")):
            totals = replay(name, both[form])
            without, with_cache = totals["cost_without"] / agent_days, totals["cost_with"] / agent_days
            written = f", {100 * totals['writes'] / totals['prompt']:.0f}% written" if totals["writes"] else ""
            cached = 100 * totals["cached"] / totals["prompt"]
            print(
                f"  {label}: {totals['prompt'] / agent_days:7,.0f} prompt tokens, {cached:2.0f}% cached{written}; "
                f"prompts ${without:.4f} uncached -> ${with_cache:.4f} cached "
                f"(caching saves {100 * (1 - with_cache / without):.0f}%); with answers ${with_cache + answers:.4f}"
            )


if __name__ == "__main__":
    main()
