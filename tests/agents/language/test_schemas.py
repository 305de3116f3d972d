"""Each request's answer schema: self-contained, the same for every request of its kind, and agreeing with its parser.

Providers key their prompt cache on the schema, so it carries the limits of its kind (lengths, ranges, the most items)
and never one call's facts. An answer a provider decodes under the schema parses, or is refused only for such a fact
(a count, a place offered, a question asked, a name: CALL_SPECIFIC), which the repair prompt then names; what the
parser refuses for any other reason, the schema refuses too.
"""

import json
import re
from dataclasses import replace

import jsonschema
import pytest

from agents.language.answers import PlaceOption, PlanBlock
from agents.language.request import AnswerError, extract_json
from agents.language.requests import ImportanceRequest

from .request_cases import CAFE, CAFE_CHOICE, CALL_SPECIFIC, HOME, ISABELLA, PARTY, REQUESTS, WRONG

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
        return schema.get("minimum", 1) if extreme == "least" else schema.get("maximum", 999)  # 999: an id not shown
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
def test_any_answer_the_schema_allows_parses_or_is_refused_for_a_fact_of_the_call(kind, extreme):
    request = REQUESTS[kind]
    answer = instance(request.answer_schema(), extreme)
    jsonschema.validate(answer, request.answer_schema())
    try:
        request.parse(json.dumps(answer))
    except AnswerError as error:
        assert re.search(CALL_SPECIFIC.get(kind, "^$"), str(error)), f"{kind}: the schema lets through {error}"


def _refusal(kind: str, text: str) -> str:
    try:
        REQUESTS[kind].parse(text)
    except AnswerError as error:
        return str(error)
    raise AssertionError(f"{kind}: the parser took {text}")


SCHEMA_CATCHES = [
    (kind, text)
    for kind, text, _ in WRONG
    if kind in WITH_SCHEMA and not re.search(CALL_SPECIFIC.get(kind, "^$"), _refusal(kind, text))
]


@pytest.mark.parametrize(
    ("kind", "text"), SCHEMA_CATCHES, ids=[f"{kind}-{i}" for i, (kind, _) in enumerate(SCHEMA_CATCHES)]
)
def test_what_the_parser_refuses_for_its_kind_the_schema_refuses(kind, text):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(extract_json(text), REQUESTS[kind].answer_schema())


PARK = PlaceOption("Johnson Park", "park", ("park garden",))
# For each kind, another request whose facts differ from REQUESTS[kind] in everything its schema used to carry.
OTHERS = {
    "importance": ImportanceRequest(ISABELLA, ("a", "b", "c", "d", PARTY)),
    "action": replace(REQUESTS["action"], actions=("walking",), places=(PARK,)),
    "decompose": replace(REQUESTS["decompose"], minutes=180),
    "schedule_rewrite": replace(REQUESTS["schedule_rewrite"], remaining=(PlanBlock("working", 240),)),
    "reaction": replace(REQUESTS["reaction"], shared_place=""),
    "conversation_line": replace(REQUESTS["conversation_line"], relationship="my regular"),
    "conversation_summary": replace(REQUESTS["conversation_summary"], first="Klaus Mueller"),
    "insights": replace(REQUESTS["insights"], questions=(("Who is Klaus?", (9,)),), memories=((9, "Klaus reads"),)),
    "scored": replace(REQUESTS["scored"], memories=(PARTY,)),
}


@pytest.mark.parametrize("kind", sorted(OTHERS))
def test_the_schema_is_the_same_for_every_request_of_a_kind(kind):
    assert OTHERS[kind].answer_schema() == REQUESTS[kind].answer_schema()


def test_counts_stay_bounded_by_the_kind_and_are_checked_by_the_parser():
    scores = REQUESTS["importance"].answer_schema()["properties"]["scores"]
    assert (scores["minItems"], scores["maxItems"]) == (1, 40)
    with pytest.raises(AnswerError, match="expected 2 scores, got 3"):
        REQUESTS["importance"].parse('{"scores": [1, 2, 3]}')
    questions = REQUESTS["reflection_questions"].answer_schema()["properties"]["questions"]
    assert questions["minItems"] == questions["maxItems"] == 3  # the run's configuration, not the call's
    plan = REQUESTS["day_plan"].answer_schema()["properties"]["plan"]
    assert (plan["minItems"], plan["maxItems"]) == (5, 8)
    minutes = REQUESTS["decompose"].answer_schema()["properties"]["actions"]["items"]["properties"]["minutes"]
    assert (minutes["minimum"], minutes["maximum"]) == (5, 15)


def test_a_place_not_offered_is_refused_by_the_parser_with_the_places_named_in_the_prompt():
    request = REQUESTS["action"]
    at_home = {**CAFE_CHOICE, "sector": HOME.sector, "arena": HOME.arena, "game_object": "piano"}
    with pytest.raises(AnswerError, match="'piano' is not an object of"):
        request.parse(json.dumps({"actions": [at_home, at_home]}))
    with pytest.raises(AnswerError, match="is not one of the places listed"):
        request.parse(json.dumps({"actions": [{**CAFE_CHOICE, "sector": "Johnson Park", "arena": "park"}] * 2}))
    user = request.messages()[1]["content"]
    assert all(f"{place.sector} > {place.arena}" in user for place in (CAFE, HOME))


def test_insight_evidence_comes_as_cited_for_the_cognition_to_judge():
    # The ids shown are in the prompt, not the schema; an insight citing one the agent does not hold is dropped by
    # the cognition (tests/agents/cognition/test_reflecting.py).
    answer = {"insights": [{"question": 1, "insight": "Maria studies", "evidence": [3, 99], "importance": 4}]}
    (insight,) = REQUESTS["insights"].parse(json.dumps(answer))
    assert insight.evidence_ids == (3, 99)
    assert "[3] " in REQUESTS["insights"].messages()[1]["content"]


def test_the_summary_names_both_people_in_the_answer_and_reads_the_older_form_too():
    request = REQUESTS["conversation_summary"]
    maria = {"name": "Maria Lopez", "takeaway": "the party", "chat_importance": 5, "takeaway_importance": 7}
    isabella = {
        "name": "Isabella Rodriguez",
        "takeaway": "Maria comes",
        "chat_importance": 3,
        "takeaway_importance": 12,
    }
    listed = {"summary": "a chat", "takeaways": [maria, isabella]}
    summary = request.parse(json.dumps(listed))
    assert summary.takeaways == (("Isabella Rodriguez", "Maria comes"), ("Maria Lopez", "the party"))
    assert summary.importance == (("Isabella Rodriguez", 3, 10), ("Maria Lopez", 5, 7))
    keyed = {"summary": "a chat", "takeaways": {"Isabella Rodriguez": "Maria comes", "Maria": "the party"},
             "importance": {"Maria Lopez": {"chat": 5, "takeaway": 7}}}  # fmt: skip
    summary = request.parse(json.dumps(keyed))
    assert summary.takeaways == (("Isabella Rodriguez", "Maria comes"), ("Maria Lopez", "the party"))
    assert summary.importance == (("Maria Lopez", 5, 7),)
    assert "Isabella Rodriguez" not in json.dumps(request.answer_schema())


@pytest.mark.parametrize("kind", WITH_SCHEMA)
def test_a_requests_schema_is_its_own_to_tighten(kind):
    request = REQUESTS[kind]
    first = request.answer_schema()
    pristine = json.dumps(request.answer_schema(), sort_keys=True)
    stack = [first]
    while stack:  # spoil every dict and list of the first copy
        node = stack.pop()
        children = list(node.values()) if isinstance(node, dict) else list(node)
        stack.extend(child for child in children if isinstance(child, dict | list))
        node.clear()
    assert json.dumps(request.answer_schema(), sort_keys=True) == pristine
