"""Command-line options that map one to one onto SmallvilleModel's keyword arguments."""

import argparse

from smallville import option_types


def agents_value(text: str) -> int | list[str] | None:
    """--agents: "all", a number, or comma-separated names."""
    if text == "all":
        return None
    if text.isdigit():
        return int(text)
    return [name.strip() for name in text.split(",") if name.strip()]


def routes_value(text: str) -> dict[str, str]:
    """--route: "kind=model,kind=model"."""
    routes = {}
    for part in text.split(","):
        kind, sep, model = part.partition("=")
        if not sep or not kind.strip() or not model.strip():
            raise argparse.ArgumentTypeError(f"route {part!r} is not kind=model (e.g. importance=ollama/llama3.1)")
        routes[kind.strip()] = model.strip()
    return routes


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """The options of a new model: scenario, agents, model names, seed, ablations, budget."""
    town = parser.add_argument_group("town")
    town.add_argument(
        "--scenario",
        dest="scenario_name",
        default="the_ville_n25",
        help="scenario name in data/scenarios/ or a path to one (default: the_ville_n25)",
    )
    town.add_argument(
        "--agents",
        type=option_types.agents_value,
        default=None,
        help='"all" (default), a number (the first n), or comma-separated names',
    )
    town.add_argument("--seed", dest="rng", type=option_types.seed, default=0, help="random seed (default: 0)")
    town.add_argument(
        "--seconds-per-step",
        type=option_types.seconds_per_step,
        default=None,
        help="simulated seconds per step (default: 10)",
    )

    minds = parser.add_argument_group("minds")
    minds.add_argument(
        "--llm",
        default="offline",
        help='"offline" (default: deterministic, free) or a litellm model name, e.g. openai/gpt-4o-mini',
    )
    minds.add_argument(
        "--route",
        dest="routes",
        type=option_types.routes_value,
        default=None,
        help="send request kinds to other models: kind=model[,kind=model]",
    )
    minds.add_argument("--api-base", default=None, help="base URL of an OpenAI-compatible or ollama server")
    minds.add_argument(
        "--embedder",
        default="minilm",
        help='"minilm" (default, local), "hashing" (fast, for tests) or a litellm embedding model',
    )
    minds.add_argument(
        "--cache",
        dest="cache_path",
        type=option_types.cache_file,
        default=None,
        help="response cache file (SQLite) to reuse",
    )
    minds.add_argument("--replay", action="store_true", help="refuse any model call the cache cannot answer")
    minds.add_argument(
        "--max-in-flight",
        type=option_types.max_in_flight,
        default=25,
        help="model calls in flight at once (default: 25)",
    )
    minds.add_argument(
        "--max-calls", type=option_types.max_calls, default=None, help="stop cleanly after this many model calls"
    )
    minds.add_argument(
        "--max-cost", type=option_types.max_cost, default=None, help="stop cleanly after this many dollars"
    )

    ablation = parser.add_argument_group("ablations (the paper's section 6)")
    ablation.add_argument("--no-planning", dest="planning", action="store_false", help="act without a day plan")
    ablation.add_argument("--no-reflection", dest="reflection", action="store_false", help="never reflect")
    ablation.add_argument(
        "--no-observation", dest="observation", action="store_false", help="do not store perceived events as memories"
    )
    ablation.add_argument(
        "--retrieval-weights",
        type=option_types.retrieval_weights,
        default="paper",
        help='recency,relevance,importance: "paper" (1,1,1), "original" (0.5,3,2) or three numbers',
    )
    ablation.add_argument(
        "--reflection-threshold",
        type=option_types.reflection_threshold,
        default=None,
        help="importance that triggers a reflection (default: the persona's, 250)",
    )


MODEL_OPTIONS = (
    "scenario_name",
    "agents",
    "rng",
    "seconds_per_step",
    "llm",
    "routes",
    "api_base",
    "embedder",
    "cache_path",
    "replay",
    "max_in_flight",
    "max_calls",
    "max_cost",
    "planning",
    "reflection",
    "observation",
    "retrieval_weights",
    "reflection_threshold",
)


def model_kwargs(args: argparse.Namespace) -> dict:
    """The SmallvilleModel keyword arguments given on the command line."""
    return {name: getattr(args, name) for name in MODEL_OPTIONS}
