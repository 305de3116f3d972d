"""JSON schemas of answers: the pydantic answer model's schema, made self-contained and tightened per request.

A schema sent as `response_format` lets a provider constrain decoding (llama.cpp and vLLM compile it to a grammar),
so it carries the limits of its request kind: lengths, ranges, the most items a list may hold. It is one schema per
kind that does not change from call to call (OpenAI documents the schema as part of the prompt-cache prefix, and a
changed schema invalidates Claude's cache on Bedrock): what one call offers (the places an agent knows, the evidence
ids shown, how many memories are rated) is in the messages and checked by the parser, whose refusal goes to the one
repair. A text that must not be empty must not be blank either (the parsers strip what they read): NOT_BLANK.
Providers that cannot enforce a keyword get it in words instead (backends/dialects.py).
"""

import copy
import functools
from typing import Any

from pydantic import BaseModel

# A text with something in it, on one line: the parsers strip answers, so "   " would be an empty text to them.
NOT_BLANK = r"^\s*\S.*$"


def answer_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an answer model, with its $defs inlined and titles removed.

    Each caller gets a copy of its own, to tighten in place with its request's limits. Some servers' grammar converters
    do not follow $ref, and titles are noise in a grammar.
    """
    return _copied(_model_schema(model))


def _copied(node: Any) -> Any:
    """A copy of JSON data, every dict and list new (copy.deepcopy's result, at a fifth of its cost: every call)."""
    if isinstance(node, dict):
        return {key: _copied(value) for key, value in node.items()}
    if isinstance(node, list | tuple):
        return type(node)(_copied(item) for item in node)
    return node


@functools.cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The schema, built once per answer model.

    Pydantic takes 0.1-0.5 ms to generate one, and did so for every model call.
    """
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(copy.deepcopy(definitions[node["$ref"].rsplit("/", 1)[-1]]))
            return {key: inline(value) for key, value in node.items() if key != "title"}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    schema = inline(schema)
    _close(schema)
    return schema


def _close(node: Any) -> None:
    """Objects take no other keys, and every listed key is required (a grammar then writes each one)."""
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        for value in node.values():
            _close(value)
    elif isinstance(node, list):
        for item in node:
            _close(item)


def prop(schema: dict, *path: str) -> dict:
    """The schema of a nested property, e.g. of each action's minutes: `prop(schema, "actions", "items", "minutes")`."""
    node = schema
    for part in path:
        node = node["items"] if part == "items" else node["properties"][part]
    return node


def count(node: dict, least: int, most: int | None = None) -> dict:
    """An array of `least` to `most` items (exactly `least` if `most` is omitted)."""
    node["minItems"] = least
    node["maxItems"] = least if most is None else most
    return node


def text(node: dict, most: int, least: int = 1) -> dict:
    """A string of `least` to `most` characters; one that may not be empty may not be blank either (NOT_BLANK)."""
    node.update(type="string", minLength=least, maxLength=most)
    if least > 0:
        node["pattern"] = NOT_BLANK
    return node


def number(node: dict, least: int, most: int) -> dict:
    """An integer from `least` to `most`."""
    node.update(type="integer", minimum=least, maximum=most)
    return node
