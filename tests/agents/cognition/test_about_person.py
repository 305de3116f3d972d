"""What an agent recalls about a person: what involves them first, its own routine after, nothing unrelated padded in.

Retrieved by score alone, "what Isabella remembers about Klaus" was her own breakfast and work: routine memories of
higher importance or recency outranked everything about him.
"""

from datetime import datetime

from agents.cognition.about_person import FLOOR, TALK_SHARE, involves, person_first, recall_about
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


def item(text: str, score: float, relevance: float, importance: float = 0.1) -> Retrieved:
    return Retrieved(node(text), score, 0.5, relevance, importance)


RETRIEVED = [
    [
        item("I am having breakfast", 2.5, 0.1),  # routine, scored high, neither relevant nor weighty
        item("I love my work at the cafe", 2.0, FLOOR),  # just relevant enough
        item("I saw a fire at the dormitory", 1.9, 0.1, importance=0.9),  # weighty news
        item("Klaus Mueller is reading", 1.0, 0.9),
    ],
    [item("Klaus told me about his paper on gentrification", 1.5, 0.8)],
]


def test_what_involves_the_person_comes_first_and_unrelated_memories_fill_no_slot():
    filed = [node("the desk is being used by Klaus Mueller")]
    shown = person_first(RETRIEVED, KLAUS, k=10, filed=filed)
    assert shown == [
        "Klaus told me about his paper on gentrification",
        "Klaus Mueller is reading",
        "the desk is being used by Klaus Mueller",
        "I love my work at the cafe",
        "I saw a fire at the dormitory",
    ]


def test_a_talk_keeps_a_third_of_its_slots_for_what_is_on_the_speakers_mind_a_reaction_none():
    many = [[item(f"Klaus Mueller is reading page {page}", 3.0 - page / 100, 0.9) for page in range(20)]]
    shown = person_first([*RETRIEVED, *many], KLAUS, k=6, others_share=TALK_SHARE)
    assert shown[:4] == [f"Klaus Mueller is reading page {page}" for page in range(4)]
    assert shown[4:] == ["I love my work at the cafe", "I saw a fire at the dormitory"]
    assert person_first([*RETRIEVED, *many], KLAUS, k=6) == [f"Klaus Mueller is reading page {p}" for p in range(6)]
    assert person_first(RETRIEVED, KLAUS, k=3, others_share=TALK_SHARE) == [
        "Klaus told me about his paper on gentrification",
        "Klaus Mueller is reading",
        "I love my work at the cafe",
    ]


def test_recall_about_reads_the_whole_stream_for_the_person_and_shows_only_k():
    routine = [(f"I am brushing my teeth at {hour} am", 8) for hour in range(1, 13)]
    memory = memory_with(*routine, ("Klaus Mueller is writing his paper", 1), ("I am cleaning the cafe", 8))
    shown = run(recall_about(memory, KLAUS, [KLAUS], now=T0, k=3, weights=RetrievalWeights(1, 1, 1)))
    assert shown[0] == "Klaus Mueller is writing his paper"
    assert len(shown) <= 3
    assert {item.node.description for item in memory.last_retrieved} <= set(shown)  # the inspector: what was shown
