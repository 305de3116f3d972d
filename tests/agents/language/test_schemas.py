"""Each request's answer schema: self-contained, carries the request's own limits, and agrees with its parser.

An answer a provider decodes under the schema must parse (the schema is never looser than the parser where it can
say so), and the answers the parser refuses for a count, a range or an unknown place, the schema refuses too.
"""

import json

import jsonschema
import pytest

from agents.language.request import extract_json
from agents.language.requests import ImportanceRequest

from .request_cases import CAFE, HOME, ISABELLA, PARTY, REQUESTS, WRONG

WITH_SCHEMA = sorted(kind for kind, request in REQUESTS.items() if request.answer_model is not None)
# Evaluation requests (interview, judge) belong to the evaluation package and declare no answer model yet.
WITHOUT_SCHEMA = sorted(set(REQUESTS) - set(WITH_SCHEMA))


def instance(schema: dict, extreme: str):  # noqa: PLR0911 - one return a JSON type
    """The smallest ("least") or largest ("most") value the schema allows, built from its keywords alone."""
    if "anyOf" in schema:
        return instance(schema["anyOf"][0 if extreme == "least" else -1], extreme)
    if "enum" in schema:
        return schema["enum"][0 if extreme == "least" else -1]
    kind = schema.get("type")
    if kind == "object":
        return {name: instance(sub, extreme) for name, sub in schema["properties"].items()}
    if kind == "array":
        size = schema.get("minItems", 0) if extreme == "least" else schema.get("maxItems", 3)
        return [instance(schema["items"], extreme) for _ in range(size)]
    if kind == "string":
        size = max(1, schema.get("minLength", 1)) if extreme == "least" else schema["maxLength"]
        return ("Who is Maria Lopez and what is she doing? " * 30)[:size]
    if kind == "integer":
        return schema.get("minimum", 1) if extreme == "least" else schema["maximum"]
    if kind == "boolean":
        return extreme == "most"
    raise AssertionError(f"no instance for {schema}")


def test_only_the_evaluation_requests_may_lack_a_schema():
    assert set(WITHOUT_SCHEMA) <= {"interview", "judge"}


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_the_schema_is_self_contained_and_bounds_every_string_and_list(kind):
    schema = REQUESTS[kind].answer_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "string" and "enum" not in node:
                assert "maxLength" in node, f"{kind}: an unbounded string runs to max_tokens"
            if node.get("type") == "array":
                assert "maxItems" in node, f"{kind}: an unbounded list runs to max_tokens"
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(schema)


@pytest.mark.parametrize("extreme", ["least", "most"])
@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_any_answer_the_schema_allows_parses(kind, extreme):
    request = REQUESTS[kind]
    answer = instance(request.answer_schema(), extreme)
    jsonschema.validate(answer, request.answer_schema())
    request.parse(json.dumps(answer))  # raises AnswerError if the schema let through what the parser refuses


SCHEMA_CATCHES = [(kind, text) for kind, text, _ in WRONG if kind in WITH_SCHEMA]


@pytest.mark.parametrize(
    ("kind", "text"), SCHEMA_CATCHES, ids=[f"{kind}-{i}" for i, (kind, _) in enumerate(SCHEMA_CATCHES)]
)
def test_what_the_parser_refuses_the_schema_refuses(kind, text):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(extract_json(text), REQUESTS[kind].answer_schema())


def test_exact_counts_follow_the_request():
    assert REQUESTS["importance"].answer_schema()["properties"]["scores"]["minItems"] == 2
    assert REQUESTS["importance"].answer_schema()["properties"]["scores"]["maxItems"] == 2
    questions = REQUESTS["reflection_questions"].answer_schema()["properties"]["questions"]
    assert questions["minItems"] == questions["maxItems"] == 3
    decompose = REQUESTS["decompose"].answer_schema()["properties"]["actions"]  # 60 minutes in 5-15 minute steps
    assert (decompose["minItems"], decompose["maxItems"]) == (4, 12)
    plan = REQUESTS["day_plan"].answer_schema()["properties"]["plan"]
    assert (plan["minItems"], plan["maxItems"]) == (5, 8)


def test_one_requests_limits_stay_out_of_the_next_ones_schema():
    # The answer model's schema is built once and copied for each request to tighten in place.
    five = ImportanceRequest(ISABELLA, ("a", "b", "c", "d", PARTY)).answer_schema()["properties"]["scores"]
    one = ImportanceRequest(ISABELLA, (PARTY,)).answer_schema()["properties"]["scores"]
    assert (five["minItems"], one["minItems"], one["maxItems"]) == (5, 1, 1)
    assert REQUESTS["importance"].answer_schema()["properties"]["scores"]["maxItems"] == 2


def test_the_action_schema_offers_exactly_the_places_listed():
    items = REQUESTS["action"].answer_schema()["properties"]["actions"]["items"]
    offered = {
        (branch["properties"]["sector"]["enum"][0], branch["properties"]["arena"]["enum"][0]): branch["properties"][
            "game_object"
        ]["enum"]
        for branch in items["anyOf"]
    }
    assert offered == {(CAFE.sector, CAFE.arena): list(CAFE.objects), (HOME.sector, HOME.arena): list(HOME.objects)}
    # A cafe object at home is a place not offered: the schema refuses it as the parser does.
    wrong = {"sector": HOME.sector, "arena": HOME.arena, "game_object": "piano", "emoji": "x", "predicate": "play",
             "target": "piano", "object_state": "played", "importance": 3}  # fmt: skip
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"actions": [wrong, wrong]}, REQUESTS["action"].answer_schema())


def test_insight_evidence_may_cite_only_the_memories_shown():
    evidence = REQUESTS["insights"].answer_schema()["properties"]["insights"]["items"]["properties"]["evidence"]
    assert evidence["items"]["enum"] == [3, 7]


def test_the_summary_names_both_people_in_full():
    takeaways = REQUESTS["conversation_summary"].answer_schema()["properties"]["takeaways"]
    assert takeaways["required"] == ["Isabella Rodriguez", "Maria Lopez"]
