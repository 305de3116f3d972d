"""What prompt caching saves, by each provider's own documented rule: the share of input tokens read from the cache, and
a day's cost at list prices with and without it.

An offline run of the town (its prompts are the ones a real model would get: the same requests, messages and
schemas) records every request: agent, kind, answer schema, and its messages in both forms the gateway sends
(request.long_prefix: the long prefix of instructions, persona and places known, and the short one). Each provider's
cache is then replayed over them (prompt_cache.CacheReplay, prompt_cache.cache_rule):
- OpenAI: the longest prefix shared with an earlier request, schema included (it heads the prompt), once it is 1,024
  tokens or more, in steps of 128;
- Anthropic: the system message at the project's breakpoint, when it reaches the model's minimum and the same
  (schema, system message) was sent before; the first sending writes it (1.25x the input price);
- Gemini: the longest shared prefix, schema included, once it reaches the model's minimum (4,096 for 3.5 Flash).
Caches are assumed warm between an agent's requests (5-10 minutes on each provider; a real-model day runs in about
half an hour to an hour of wall time, an agent asking about once a minute). Prices are litellm's map. Input tokens
count the schema (providers bill the schema they inject) as well as the messages, so they exceed bench_day's.
The recording can be saved (--save) and replayed later (--load): run --save with another checkout on PYTHONPATH to
measure its prompts by today's rules (the "before" of a change).
Run: .venv/bin/python benchmarks/bench_prompt_cache.py [--scenario S] [--hours H] [--model M ...]
"""

import argparse
import gzip
import json
import os
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

MODELS = (
    "openai/gpt-5.4-mini",
    "anthropic/claude-haiku-4-5",
    "anthropic/claude-sonnet-4-6",
    "gemini/gemini-3.5-flash",
)


def record(scenario: str, hours: float) -> dict:
    """Every request of an offline run, in the order asked: agent, kind, schema, both forms of its messages.

    Uses only what every checkout has (the model, `long_prefix`, a request's messages and schema), so another
    checkout's prompts can be recorded with this file.
    """
    from agents.language.request import long_prefix
    from smallville.model import SmallvilleModel

    started = time.perf_counter()
    model = SmallvilleModel(scenario_name=scenario, embedder="hashing", rng=0)
    asked: list[dict] = []
    ask = model.gateway.ask

    async def recording(request, agent):
        forms = {}
        for form in (True, False):
            with long_prefix(form):
                forms["long" if form else "short"] = request.messages()
        schema = request.answer_schema()
        asked.append({"agent": agent, "kind": request.kind, "schema": schema, **forms})
        return await ask(request, agent)

    model.gateway.ask = recording
    model.run_until(model.start + timedelta(hours=hours))
    model.close()
    totals = model.gateway.ledger.totals()
    return {
        "scenario": scenario,
        "hours": hours,
        "agents": len(model.people),
        "wall_s": time.perf_counter() - started,
        "calls": totals.calls,
        "completion_tokens": totals.completion_tokens,
        "requests": asked,
    }


def repeats(requests: list[dict]) -> tuple[int, int, int]:
    """Distinct schemas, requests repeating an earlier system message, and repeating the (schema, system) pair."""
    schemas, systems, pairs = set(), set(), set()
    system_again = pair_again = 0
    for item in requests:
        schema, system = json.dumps(item["schema"], sort_keys=True), item["long"][0]["content"]
        system_again += system in systems
        pair_again += (schema, system) in pairs
        schemas.add((item["kind"], schema))
        systems.add(system)
        pairs.add((schema, system))
    return len(schemas), system_again, pair_again


def replay(model_name: str, requests: list[dict], form: str) -> dict[str, float]:
    """Input tokens, cached and written tokens and the input's cost with and without caching, for one model."""
    from agents.language.backends.litellm_import import import_litellm
    from agents.language.backends.prompt_cache import CacheReplay, cache_rule, schema_text

    prices = import_litellm().get_model_info(model_name)
    base = prices["input_cost_per_token"]
    read = prices.get("cache_read_input_token_cost") or base
    write = prices.get("cache_creation_input_token_cost") or base
    cache = CacheReplay(cache_rule(model_name))
    totals = Counter()
    for item in requests:
        served = cache.serve(schema_text(item["schema"]), item[form])
        totals["prompt"] += served.prompt
        totals["cached"] += served.cached
        totals["written"] += served.written
        totals["without"] += served.prompt * base
        totals["with"] += (served.prompt - served.cached - served.written) * base + served.cached * read
        totals["with"] += served.written * write
    return totals


def report(recording: dict, models: list[str]) -> None:
    """Print the recording's counts and, per model and form, the cached share and the cost per agent-day."""
    from agents.language.backends.litellm_import import import_litellm
    from agents.language.backends.prompt_cache import cache_rule, long_prefix_pays

    requests = recording["requests"]
    agent_days = recording["agents"] * recording["hours"] / 24
    distinct, system_again, pair_again = repeats(requests)
    print(f"{recording['scenario']}, {recording['hours']:g} h offline ({recording['wall_s']:.1f} s to record, load "
          f"{os.getloadavg()[0]:.2f}): {len(requests)} requests, {recording['calls']} calls, "
          f"{recording['calls'] / agent_days:.1f} calls per agent-day")  # fmt: skip
    print(f"{distinct} distinct (kind, schema); {system_again} of {len(requests)} repeat a system message, "
          f"{pair_again} of {len(requests)} the (schema, system) pair")  # fmt: skip
    completion = recording["completion_tokens"] / agent_days
    print(f"completion tokens per agent-day: {completion:,.0f}")
    for name in models:
        rule = cache_rule(name)
        answers = completion * import_litellm().get_model_info(name)["output_cost_per_token"]
        where = "at the breakpoint" if rule.breakpoint else f"steps of {rule.step}"
        sent = "long" if long_prefix_pays(name) else "short"
        print(f"{name} ({rule.provider} rule: at least {rule.least} tokens, {where}; the gateway sends the {sent} "
              f"prefix), per agent-day, answers ${answers:.4f}:")  # fmt: skip
        for form in ("short", "long"):
            totals = replay(name, requests, form)
            without, with_cache = totals["without"] / agent_days, totals["with"] / agent_days
            written = f", {100 * totals['written'] / totals['prompt']:.0f}% written" if totals["written"] else ""
            print(
                f"  {form:5} prefix: {totals['prompt'] / agent_days:7,.0f} input tokens, "
                f"{100 * totals['cached'] / totals['prompt']:2.0f}% read from cache{written}; input ${without:.4f} "
                f"-> ${with_cache:.4f} cached; day with answers ${without + answers:.4f} -> ${with_cache + answers:.4f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="the_ville_n25")
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--model", action="append", dest="models", help=f"default: {', '.join(MODELS)}")
    parser.add_argument("--save", type=Path, help="write the recording here (gzip JSON) and stop")
    parser.add_argument("--load", type=Path, help="replay a saved recording instead of recording")
    arguments = parser.parse_args()
    if arguments.load:
        recording = json.loads(gzip.decompress(arguments.load.read_bytes()))
    else:
        recording = record(arguments.scenario, arguments.hours)
    if arguments.save:
        arguments.save.write_bytes(gzip.compress(json.dumps(recording).encode()))
        print(f"saved {len(recording['requests'])} requests to {arguments.save}")
        return
    report(recording, arguments.models or list(MODELS))


if __name__ == "__main__":
    main()
