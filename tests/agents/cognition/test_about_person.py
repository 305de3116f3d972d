"""What an agent recalls about a person: what involves them first, its own routine after, nothing unrelated padded in.

Retrieved by score alone, "what Isabella remembers about Klaus" was her own breakfast and work: routine memories of
higher importance or recency outranked everything about him.
"""

from datetime import datetime

from agents.cognition.about_person import RELEVANCE_FLOOR, involves, person_first, recall_about
from memory import MemoryNode, NodeKind, RetrievalWeights, Retrieved
from tests.agents.cognition.scripted import T0, memory_with, run

KLAUS = "Klaus Mueller"


def node(text: str, **details) -> MemoryNode:
    return MemoryNode(id=0, kind=NodeKind.THOUGHT, created=datetime(2023, 2, 13), description=text, **details)


def test_a_memory_involves_a_person_by_name_first_name_talk_or_keyword():
    assert involves(node("Klaus Mueller is reading"), KLAUS)
    assert involves(node("I had lunch with Klaus"), KLAUS)
    assert involves(node("conversation: we talked about the weather", partner=KLAUS), KLAUS)
    assert involves(node("the desk is in use", keywords=frozenset({"klaus mueller"})), KLAUS)
    assert not involves(node("Klausen Street is closed"), KLAUS)
    assert not involves(node("I am having breakfast"), KLAUS)


def test_what_involves_the_person_comes_first_and_unrelated_memories_fill_no_slot():
    def item(text: str, score: float, relevance: float) -> Retrieved:
        return Retrieved(node(text), score, 0.5, relevance, 0.5)

    retrieved = [
        [
            item("I am having breakfast", 2.5, 0.1),  # routine, scored high, unrelated
            item("I love my work at the cafe", 2.0, RELEVANCE_FLOOR),  # just relevant enough
            item("Klaus Mueller is reading", 1.0, 0.9),
        ],
        [item("Klaus told me about his paper on gentrification", 1.5, 0.8)],
    ]
    filed = [node("the desk is being used by Klaus Mueller")]
    shown = person_first(retrieved, KLAUS, k=10, filed=filed)
    assert shown == [
        "Klaus told me about his paper on gentrification",
        "Klaus Mueller is reading",
        "the desk is being used by Klaus Mueller",
        "I love my work at the cafe",
    ]
    assert person_first(retrieved, KLAUS, k=2) == shown[:2]


def test_recall_about_reads_the_whole_stream_for_the_person_and_shows_only_k():
    routine = [(f"I am brushing my teeth at {hour} am", 8) for hour in range(1, 13)]
    memory = memory_with(*routine, ("Klaus Mueller is writing his paper", 1), ("I am cleaning the cafe", 8))
    shown = run(recall_about(memory, KLAUS, [KLAUS], now=T0, k=3, weights=RetrievalWeights(1, 1, 1)))
    assert shown[0] == "Klaus Mueller is writing his paper"
    assert len(shown) <= 3
    assert {item.node.description for item in memory.last_retrieved} <= set(shown)  # the inspector: what was shown
