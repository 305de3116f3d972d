"""Validators of options whose rules live in the layers below: the agents' configuration, requests, interventions.

They load numpy, pydantic and the agents, so they sit beside the parameter table (which loads those anyway) and not
in option_types, which only the standard library may load: `run.py --help` never imports this module.
"""

import argparse

from agents import REASONING_EFFORTS
from agents.config import PAPER_REFLECTION_THRESHOLD
from agents.language import ALL_REQUESTS
from memory import LOCAL_EMBEDDERS, is_local_embedder
from smallville.interventions.records import InterventionError, load_interventions
from smallville.settings import option_types as check

__all__ = ["embedder_name", "interventions_file", "reasoning_effort", "reflection_threshold", "routes_value"]


def embedder_name(text: str) -> str:
    """--embedder: a local embedder or a litellm "provider/model" name, the two forms the agents can build.

    Any other name passed every check and was refused only when the town was built, after its run folder was made
    (and, from the page, as a traceback in the server's log).
    """
    if is_local_embedder(text) or ("/" in text.strip("/") and text == text.strip() and check.visible(text)):
        return text
    raise argparse.ArgumentTypeError(
        f"unknown embedder {text[:60]!r}: use one of {', '.join(LOCAL_EMBEDDERS)} or a litellm embedding model name "
        "such as 'openai/text-embedding-3-small'"
    )


def reasoning_effort(text: str) -> str:
    """--reasoning-effort (simulate's and `models check`'s): one of the levels the gateway maps to each model's own."""
    if text not in REASONING_EFFORTS:
        raise argparse.ArgumentTypeError(f"{text!r}: give one of {', '.join(REASONING_EFFORTS)}, e.g. minimal")
    return text


def reflection_threshold(text: str) -> int | None:
    """--reflection-threshold: "paper" (the paper's 150), "data" (each persona's, 250 in the 25-agent data), or >= 1."""
    named = {"paper": PAPER_REFLECTION_THRESHOLD, "data": None}
    if text.strip().lower() in named:
        return named[text.strip().lower()]
    return check.ranged("reflection_threshold")(text)


def routes_value(text: str) -> dict[str, str]:
    """--route: "kind=model,kind=model" with kinds the agents really ask for."""
    kinds = [request.kind for request in ALL_REQUESTS]
    routes = {}
    for part in text.split(","):
        kind, sep, model = (piece.strip() for piece in part.partition("="))
        if not sep or not kind or not model:
            raise argparse.ArgumentTypeError(f"route {part!r} is not kind=model (e.g. importance=ollama/llama3.1)")
        if kind not in kinds:
            raise argparse.ArgumentTypeError(f"no request kind {kind!r}; choose from: {', '.join(kinds)}")
        if kind in routes:
            raise argparse.ArgumentTypeError(
                f"{kind} is routed twice ({routes[kind]} and {model}); give each request kind one model"
            )
        routes[kind] = model
    return routes


def interventions_file(text: str) -> list[dict]:
    """--interventions: a TOML or JSON file of interventions, read and checked now (the run keeps the data)."""
    try:
        return [item.model_dump(mode="json") for item in load_interventions(text)]
    except InterventionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
