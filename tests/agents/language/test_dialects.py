"""Every request kind's schema in every provider's dialect meets that provider's documented rules, and any answer the
request's schema allows, the request's parser accepts.

OpenAI's strict mode is checked with the `openai` SDK's own strict-schema helper (a strict schema is its fixed point)
and the Structured Outputs guide's keyword list and limits; Gemini against its documented JSON Schema subset;
Anthropic's as litellm rewrites it, against Anthropic's unsupported list; the grammar servers' without patterns.
"""

import copy
import json
import re

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.lib._pydantic import _ensure_strict_json_schema

from agents.language.backends import dialects, providers
from agents.language.request import AnswerError
from tests.sampled_requests import sampled_requests

from .request_cases import CALL_SPECIFIC
from .request_cases import REQUESTS as FIXTURES
from .schema_nodes import ANTHROPIC_REFUSES, nodes

# Every kind: the fixtures', and the evaluation's judge kinds as `run.py models check --judge` asks them.
REQUESTS = {**sampled_requests(judge=True), **FIXTURES}
WITH_SCHEMA = sorted(kind for kind, request in REQUESTS.items() if request.answer_model is not None)
# Rules a parser checks that JSON Schema cannot say (so a schema-valid answer may still be refused, and repaired).
UNSAYABLE = {
    "rank": "every label exactly once across the groups: a partition of the labels",
    "ranks": "the same for each question's ranking",
}
# The Structured Outputs guide's limits for a strict schema.
MOST_PROPERTIES, MOST_NESTING, MOST_ENUM_VALUES = 5000, 10, 1000
# Characters answers are drawn from: blanks of every kind, letters, an emoji, quotes, a backslash.
CHARACTERS = st.sampled_from([" ", "\t", "\n", "\u00a0", "a", "Z", "é", "🙂", '"', "\\", "."]) | st.characters(
    codec="utf-8"
)


def answers(schema: dict) -> st.SearchStrategy:  # noqa: PLR0911 - one return a JSON type
    """Any value the schema allows, for the keywords the answer schemas use (checked with jsonschema on the way)."""
    if "anyOf" in schema:
        return st.one_of([answers(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        return st.fixed_dictionaries({name: answers(child) for name, child in schema["properties"].items()})
    if kind == "array":
        return st.lists(answers(schema["items"]), min_size=schema.get("minItems", 0), max_size=schema["maxItems"])
    if kind == "string":
        least, most = schema.get("minLength", 0), schema["maxLength"]
        text = st.text(CHARACTERS, min_size=least, max_size=most)
        if "pattern" not in schema:  # blanks the schema allows (with a pattern, the filter below would refuse them)
            text = st.text(st.sampled_from(" \t\u00a0"), min_size=least, max_size=min(most, least + 3)) | text
        return text.filter(lambda value: re.search(schema.get("pattern", ""), value) is not None)
    if kind == "integer":
        return st.integers(schema.get("minimum", -(10**6)), schema.get("maximum", 10**6))
    if kind == "boolean":
        return st.booleans()
    raise AssertionError(f"no strategy for {schema}")


def sent_schema(kind: str, model: str, api_base: str | None = None) -> dict:
    """The schema the request's response_format carries for a model, whatever form it goes in."""
    form = providers.structured_forms(model, api_base)[0]
    answer_format = providers.response_format(form, kind, REQUESTS[kind].answer_schema(), model, api_base)
    return answer_format["json_schema"]["schema"] if form == providers.JSON_SCHEMA else answer_format["schema"]


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_openai_gets_strict_mode_with_a_schema_the_sdk_helper_leaves_as_it_is(kind):
    answer_format = providers.response_format(
        "json_schema", kind, REQUESTS[kind].answer_schema(), "openai/gpt-5.4-mini"
    )
    assert answer_format["json_schema"]["strict"] is True
    schema = answer_format["json_schema"]["schema"]
    assert _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=schema) == schema
    assert schema["type"] == "object" and "anyOf" not in schema
    found = list(nodes(schema))
    for node, depth in found:
        assert set(node) <= dialects.SUPPORTED[dialects.STRICT], f"{kind}: {set(node) - dialects.SUPPORTED['strict']}"
        assert depth <= MOST_NESTING
        if node.get("type") == "object":
            assert node["additionalProperties"] is False and node["required"] == list(node["properties"])
    assert sum(len(node.get("properties", {})) for node, _ in found) <= MOST_PROPERTIES
    assert sum(len(node.get("enum", [])) for node, _ in found) <= MOST_ENUM_VALUES


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_what_strict_mode_cannot_say_is_in_the_description(kind):
    limits = {node.get("maxLength") for node, _ in nodes(REQUESTS[kind].answer_schema())} - {None}
    described = json.dumps(sent_schema(kind, "openai/gpt-5.4-mini")).lower()
    for limit in limits:
        assert f"at most {limit} characters" in described


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_gemini_gets_only_the_keywords_of_its_json_schema_subset(kind):
    schema = sent_schema(kind, "gemini/gemini-3.5-flash")
    for node, _ in nodes(schema):
        assert set(node) <= dialects.SUPPORTED[dialects.GEMINI], kind


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_anthropic_gets_a_schema_litellm_rewrites_within_its_rules(kind):
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    schema = AnthropicConfig.filter_anthropic_output_schema(sent_schema(kind, "anthropic/claude-haiku-4-5"))
    for node, _ in nodes(schema):
        assert not set(node) & ANTHROPIC_REFUSES, kind
        assert node.get("minItems", 0) <= 1
        assert len(node.get("anyOf", [])) <= 16


@pytest.mark.parametrize(
    ("model", "api_base"),
    [("hosted_vllm/x", "http://127.0.0.1:1/v1"), ("openai/local", "http://127.0.0.1:1/v1"), ("ollama_chat/x", None)],
    ids=["vllm", "llama.cpp", "ollama"],
)
@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_grammar_servers_get_every_count_and_length_but_no_pattern(kind, model, api_base):
    schema = sent_schema(kind, model, api_base)
    assert "pattern" not in json.dumps(schema)
    assert schema == dialects.rewrite(REQUESTS[kind].answer_schema(), dialects.GRAMMAR)
    assert json.dumps(schema).count("maxLength") == json.dumps(REQUESTS[kind].answer_schema()).count("maxLength")
    # llama.cpp's grammar parser refuses longer strings (and llama-cpp-python's server stopped on one).
    assert all(node.get("maxLength", 0) <= dialects.GRAMMAR_LONGEST_TEXT for node, _ in nodes(schema))
    # llama-cpp-python's converter ignores minimum/maximum: a small range goes as the enumeration of its values.
    ranges = [node for node, _ in nodes(schema) if "minimum" in node and "maximum" in node]
    assert all(node["maximum"] - node["minimum"] >= dialects.GRAMMAR_LARGEST_RANGE for node in ranges), kind


# The kinds whose schemas take longest to explore (0.4-5 s each) run in the slow set; the rest keep the rule fast.
SLOW_TO_EXPLORE = {"action", "conversation_line", "conversation_summary", "day_plan", "decompose", "hourly_schedule",
                   "insights", "object_reaction", "reaction", "reflection_questions", "schedule_rewrite",
                   "scored"}  # fmt: skip


@pytest.mark.parametrize(
    "kind", [pytest.param(kind, marks=pytest.mark.slow) if kind in SLOW_TO_EXPLORE else kind for kind in WITH_SCHEMA]
)
def test_a_grammar_servers_integers_allow_what_the_request_allows(kind):
    schema = REQUESTS[kind].answer_schema()
    sent = dialects.rewrite(schema, dialects.GRAMMAR)
    for (before, _), (after, _) in zip(nodes(schema), nodes(sent), strict=True):
        if before.get("type") == "integer":
            asked, allowed = jsonschema.Draft202012Validator(before), jsonschema.Draft202012Validator(after)
            values = range(-10, 2000)
            assert [value for value in values if allowed.is_valid(value)] == [
                value for value in values if asked.is_valid(value)
            ], (kind, before)


@pytest.mark.parametrize("model", ["openai/gpt-5.4-mini", "hosted_vllm/x", "gemini/gemini-3.5-flash", "ollama_chat/x"])
def test_a_request_without_an_answer_model_gets_json_mode_never_a_null_schema(model):
    form = providers.structured_forms(model)[0]
    assert providers.response_format(form, "interview", None, model) == {"type": "json_object"}
    assert providers.response_format("json_schema", "interview", None, "anthropic/claude-haiku-4-5") is None


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_a_blank_text_is_refused_by_the_schema_as_by_the_parser(kind):
    schema = REQUESTS[kind].answer_schema()
    texts = [node for node, _ in nodes(schema) if node.get("type") == "string" and node.get("minLength", 0) > 0]
    for node in texts:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate("   ", node)


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(kind, marks=pytest.mark.slow) if kind in SLOW_TO_EXPLORE else kind
        for kind in sorted(set(WITH_SCHEMA) - set(UNSAYABLE))
    ],
)
def test_every_answer_the_schema_allows_the_parser_accepts(kind):
    request = REQUESTS[kind]
    schema = request.answer_schema()

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
    @given(st.data())
    def check(data):
        answer = data.draw(answers(schema))
        jsonschema.validate(answer, schema)
        try:
            request.parse(json.dumps(answer))
        except AnswerError as error:
            if re.search(CALL_SPECIFIC.get(kind, "^$"), str(error)):
                return  # a fact of this call the schema leaves to the parser: the repair prompt says which
            raise AssertionError(f"{kind}: the schema allows {answer!r}, the parser refuses it: {error}") from None

    check()
