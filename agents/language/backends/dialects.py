"""An answer schema rewritten for what each provider's constrained decoding enforces.

The request's schema (schemas.py) says everything the parser checks that JSON Schema can say. Each provider enforces
a subset: what it does not support is moved into the `description` (the model still reads it) and stays enforced by
the parser, which checks every answer anyway. Sending a keyword a provider does not support gets a 400 (OpenAI's
strict mode, Anthropic) or is silently ignored (Gemini), so each dialect keeps only its provider's documented list:

- OpenAI strict mode (the Structured Outputs guide, "Supported schemas"): strings take `pattern` and `format` but
  not `minLength`/`maxLength`; `default` is not permitted; every object closed, every property required (checked
  against the `openai` SDK's own `_ensure_strict_json_schema` in the tests).
- Gemini's `response_json_schema` (ai.google.dev structured output, "JSON Schema support"): strings take `enum` and
  `format`; numbers `minimum`/`maximum`/`enum`; arrays `minItems`/`maxItems`/`items`/`prefixItems`; no `pattern`,
  no lengths.
- Grammar servers (llama.cpp's json_object + schema, Ollama's `format`, vLLM/SGLang's json_schema) compile the schema
  to a grammar: lengths and counts are enforced, but llama.cpp refuses a `pattern` not written as `^...$` and each
  engine reads regular expressions its own way, so patterns go; and llama.cpp refuses a string of more than about
  1,000 characters ("number of rules that are going to be repeated ... exceeds sane defaults": a 1,600-character
  interview answer stopped llama-cpp-python's server), so longer texts are capped at GRAMMAR_LONGEST_TEXT. And
  llama-cpp-python's converter ignores `minimum`/`maximum` (a "TODO" in its llama_grammar.py: SmolLM2 wrote insight
  question 4 of 1), while every grammar engine compiles an `enum`: an integer range of at most GRAMMAR_LARGEST_RANGE
  values goes as the enumeration of its values.
- Claude's structured outputs (platform.claude.com, structured outputs, "JSON Schema limitations"), wherever Claude
  is served (Anthropic's `output_config.format`, Bedrock's `outputConfig.textFormat`, OpenRouter's json_schema):
  no numerical constraints (`minimum`, `maximum`, `multipleOf`), no string lengths, `minItems` only 0 or 1, no
  `maxItems`; `enum`, `const`, `anyOf`, `pattern` (simple regular expressions) and `format` are taken.
  Anthropic's SDK rewrites a schema the same way (counts, ranges and lengths into descriptions); litellm does it
  only for its beta `output_format` and sends Bedrock's schema raw, so the rewrite is ours.
"""

import copy
import math
from typing import Any

STRICT, GEMINI, GRAMMAR, ANTHROPIC, PLAIN = "strict", "gemini", "grammar", "anthropic", "plain"

# Keywords each dialect's provider enforces (a node's other keywords are described, or dropped if meaningless).
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
                        "description", "title", "$defs", "$ref"})  # fmt: skip
_STRICT = {"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems",
           "maxItems"}  # fmt: skip
_GEMINI = {"format", "minimum", "maximum", "minItems", "maxItems", "prefixItems", "propertyOrdering"}
_ANTHROPIC = {"pattern", "format", "minItems"}
SUPPORTED = {STRICT: _STRUCTURE | _STRICT, GEMINI: _STRUCTURE | _GEMINI, ANTHROPIC: _STRUCTURE | _ANTHROPIC}
# Keywords a dialect takes only up to a value (Claude: minItems of 0 or 1); a larger value is described instead.
CEILINGS = {ANTHROPIC: {"minItems": 1}}
# Keywords with nothing to say to a model once removed: every property is required, so a default never applies.
SILENT = frozenset({"default"})
# How a removed keyword reads in a description.
NOTES = {
    "minLength": "at least {} characters long",
    "maxLength": "at most {} characters",
    "pattern": "matching the regular expression {}",
    "minimum": "at least {}",
    "maximum": "at most {}",
    "exclusiveMinimum": "more than {}",
    "exclusiveMaximum": "less than {}",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
}
# The longest string a grammar server is asked for (llama.cpp's grammar parser refuses 1,600; 1,000 passed).
GRAMMAR_LONGEST_TEXT = 1000
# The widest integer range a grammar server gets as an enumeration of its values (the hour, importance, the question
# asked, an action's minutes; a day's 5-1,440 minutes stay a range, which the schedule's parser fits anyway).
GRAMMAR_LARGEST_RANGE = 100
# Lower bounds that say nothing at 0.
LOWER_BOUNDS = frozenset({"minLength", "minItems"})
# The one pattern the request schemas use (schemas.NOT_BLANK), in words.
WORDED_PATTERNS = {r"^\s*\S.*$": "not blank, on one line"}


def rewrite(schema: dict[str, Any], dialect: str) -> dict[str, Any]:
    """A copy of an answer schema in a provider's dialect (the schema itself is left unchanged)."""
    if dialect in SUPPORTED:
        return _noted(copy.deepcopy(schema), SUPPORTED[dialect], CEILINGS.get(dialect, {}))
    if dialect == GRAMMAR:
        return _for_grammar(_without(copy.deepcopy(schema), "pattern"))
    return copy.deepcopy(schema)


def _noted(node: Any, supported: frozenset[str], ceilings: dict[str, int] | None = None) -> Any:
    """Unsupported keywords of every node moved into its description, children first."""
    ceilings = ceilings or {}
    if isinstance(node, list):
        return [_noted(item, supported, ceilings) for item in node]
    if not isinstance(node, dict):
        return node
    result, notes = {}, []
    for key, value in node.items():
        if key in {"properties", "$defs"}:
            result[key] = {name: _noted(child, supported, ceilings) for name, child in value.items()}
        elif key in {"items", "anyOf", "prefixItems"}:
            result[key] = _noted(value, supported, ceilings)
        elif key in supported and not (key in ceilings and isinstance(value, int) and value > ceilings[key]):
            result[key] = value
        elif key not in SILENT and not (key in LOWER_BOUNDS and value == 0):
            notes.append(_note(key, value))
    if notes:
        note = "; ".join(notes)
        result["description"] = " ".join(filter(None, [result.get("description"), note[:1].upper() + note[1:] + "."]))
    return result


def _note(keyword: str, value: Any) -> str:
    """A removed keyword in words: "at most 500 characters"."""
    if keyword == "pattern" and value in WORDED_PATTERNS:
        return WORDED_PATTERNS[value]
    return NOTES.get(keyword, keyword + ": {}").format(value)


def _for_grammar(node: Any) -> Any:
    """The schema as grammar servers compile it, in place.

    Every maxLength at most GRAMMAR_LONGEST_TEXT (the parser cuts a longer text anyway), and every integer range of
    at most GRAMMAR_LARGEST_RANGE values the enumeration of its values.
    """
    if isinstance(node, list):
        for item in node:
            _for_grammar(item)
    elif isinstance(node, dict):
        if isinstance(node.get("maxLength"), int):
            node["maxLength"] = min(node["maxLength"], GRAMMAR_LONGEST_TEXT)
        values = _integer_range(node)
        if values is not None and len(values) <= GRAMMAR_LARGEST_RANGE:
            for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                node.pop(bound, None)
            node["enum"] = list(values)
        for key, value in node.items():
            if key == "properties":
                for child in value.values():
                    _for_grammar(child)
            elif isinstance(value, dict | list):
                _for_grammar(value)
    return node


def _integer_range(node: dict) -> range | None:
    """The values an integer node bounded on both sides (and not enumerated) allows, else None."""
    if node.get("type") != "integer" or "enum" in node or "const" in node:
        return None
    lows = [math.ceil(node["minimum"])] if "minimum" in node else []
    lows += [math.floor(node["exclusiveMinimum"]) + 1] if "exclusiveMinimum" in node else []
    highs = [math.floor(node["maximum"])] if "maximum" in node else []
    highs += [math.ceil(node["exclusiveMaximum"]) - 1] if "exclusiveMaximum" in node else []
    return range(max(lows), min(highs) + 1) if lows and highs else None


def _without(node: Any, keyword: str) -> Any:
    """The schema without one keyword anywhere (property names of that spelling are kept)."""
    if isinstance(node, list):
        return [_without(item, keyword) for item in node]
    if not isinstance(node, dict):
        return node
    kept = {key: value for key, value in node.items() if key != keyword}
    for key, value in kept.items():
        inner = value.items() if key == "properties" else None
        kept[key] = {name: _without(child, keyword) for name, child in inner} if inner else _without(value, keyword)
    return kept
