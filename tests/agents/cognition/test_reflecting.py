"""Reflection: when it fires, and insights stored with the evidence they cite (never a dangling citation)."""

import pytest

from agents import MindConfig
from agents.cognition.reflecting import reflect, reflection_due
from memory import NodeKind
from tests.agents.cognition.scripted import T0, ScriptedMind, memory_with, run
from tests.agents.personas import identity

KLAUS = identity("Klaus Mueller")


@pytest.mark.parametrize(
    ("importances", "threshold", "due"),
    [((5, 4), 10, False), ((5, 5), 10, True), ((9, 9, 9), 10, True)],
    ids=["below", "exactly-at", "above"],
)
def test_the_trigger_is_importance_since_the_last_reflection(importances, threshold, due):
    memory = memory_with(*((f"memory {i}", score) for i, score in enumerate(importances)))
    assert reflection_due(memory, threshold) is due


def insights_citing(*ids, importance=None):
    def answer(request):
        rated = {} if importance is None else {"importance": importance}
        return {
            "insights": [
                {"question": index, "insight": f"insight {index} from {list(ids)}", "evidence": list(ids), **rated}
                for index in range(1, len(request.questions) + 1)
            ]
        }

    return answer


def test_one_request_answers_every_question_and_rates_its_insights():
    memory = memory_with(("Klaus is writing his paper", 8), ("Klaus talks with Maria about gentrification", 8))
    mind = ScriptedMind(
        {
            "reflection_questions": lambda r: {"questions": ["What is Klaus working on?", "Who is Maria?"]},
            "insights": insights_citing(0, 1, importance=7),
        }
    )
    config = MindConfig(reflection_questions=2, insights_per_question=1)
    stored = run(reflect(mind.ask, KLAUS, memory, T0, config))
    assert [len(mind.asked(kind)) for kind in ("reflection_questions", "insights", "importance")] == [1, 1, 0]
    (request,) = mind.asked("insights")
    assert [question for question, _ in request.questions] == ["What is Klaus working on?", "Who is Maria?"]
    assert all(ids and set(ids) <= {node_id for node_id, _ in request.memories} for _, ids in request.questions)
    assert len({node_id for node_id, _ in request.memories}) == len(request.memories)  # each memory listed once
    assert [node.kind for node in stored] == [NodeKind.REFLECTION, NodeKind.REFLECTION]
    assert all(node.evidence_ids == (0, 1) and node.importance == 7 for node in stored)
    assert not reflection_due(memory, 1)  # the importance count starts again after a reflection


def test_insights_the_model_left_unrated_are_rated_in_one_importance_call():
    memory = memory_with(("Klaus is writing his paper", 8))
    mind = ScriptedMind(
        {
            "reflection_questions": lambda r: {"questions": ["What is Klaus working on?"] * r.n},
            "insights": insights_citing(0),
            "importance": lambda r: {"scores": [6] * len(r.memories)},
        }
    )
    stored = run(reflect(mind.ask, KLAUS, memory, T0, MindConfig(reflection_questions=3)))
    assert len(mind.asked("importance")) == 1 and [node.importance for node in stored] == [6, 6, 6]


def test_an_insight_citing_a_memory_it_does_not_hold_is_dropped(caplog):
    memory = memory_with(("Klaus is writing his paper", 8))
    mind = ScriptedMind(
        {
            "reflection_questions": lambda r: {"questions": ["What is Klaus working on?"] * r.n},
            "insights": insights_citing(0, 99),
            "importance": lambda r: {"scores": [7] * len(r.memories)},
        }
    )
    stored = run(reflect(mind.ask, KLAUS, memory, T0, MindConfig(reflection_questions=1)))
    assert stored == [] and "cites ids [99]" in caplog.text
    assert not any(node.kind == NodeKind.REFLECTION for node in memory.stream)


def test_memories_worded_alike_are_shown_once_to_both_requests():
    memory = memory_with(*((text, 8) for text in ["Klaus is writing his paper"] * 3 + ["Klaus talks with Maria"]))
    mind = ScriptedMind(
        {
            "reflection_questions": lambda r: {"questions": ["What is Klaus working on?"] * r.n},
            "insights": insights_citing(0, importance=5),
        }
    )
    run(reflect(mind.ask, KLAUS, memory, T0, MindConfig(reflection_questions=2)))
    (questions,) = mind.asked("reflection_questions")
    assert sorted(questions.statements) == ["Klaus is writing his paper", "Klaus talks with Maria"]
    (insights,) = mind.asked("insights")
    assert sorted(text for _, text in insights.memories) == ["Klaus is writing his paper", "Klaus talks with Maria"]
    assert all(len(ids) == 2 for _, ids in insights.questions)
