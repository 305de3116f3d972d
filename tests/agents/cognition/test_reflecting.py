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


def insights_citing(*ids):
    return lambda request: {"insights": [{"insight": f"insight from {list(ids)}", "evidence": list(ids)}]}


def test_insights_cite_their_evidence_and_the_count_restarts():
    memory = memory_with(("Klaus is writing his paper", 8), ("Klaus talks with Maria about gentrification", 8))
    mind = ScriptedMind(
        {
            "reflection_questions": lambda r: {"questions": ["What is Klaus working on?"] * r.n},
            "insights": insights_citing(0, 1),
            "importance": lambda r: {"scores": [7] * len(r.memories)},
        }
    )
    config = MindConfig(reflection_questions=2, insights_per_question=1)
    stored = run(reflect(mind.ask, KLAUS, memory, T0, config))
    assert len(mind.asked("reflection_questions")) == 1 and len(mind.asked("insights")) == 2
    assert [node.kind for node in stored] == [NodeKind.REFLECTION, NodeKind.REFLECTION]
    assert all(node.evidence_ids == (0, 1) and node.importance == 7 for node in stored)
    assert not reflection_due(memory, 1)  # the importance count starts again after a reflection


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
