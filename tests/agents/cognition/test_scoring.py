"""Scoring: queued memories ride along on the agent's next request, and the reflection trigger still fires."""

from agents import MindConfig, WorldView
from agents.agent_memory import PendingMemory
from agents.cognition.conversing import summarize
from agents.cognition.reacting import react
from agents.cognition.reflecting import reflection_due
from agents.cognition.scoring import ScoringRider, settle_known, settle_pending
from agents.conversation import Conversation
from agents.language.requests import ScoredRequest
from agents.records import SocialClock
from memory import NodeKind
from tests.agents.cognition.scripted import T0, ScriptedMind, memory_with, run
from tests.agents.personas import identity, status

KLAUS = identity("Klaus Mueller")
SEEN = ("Maria Lopez is studying", "Isabella Rodriguez is inviting everyone to a party", "the desk is being used")


def queued(memory, texts=SEEN):
    for minute, text in enumerate(texts):
        memory.queue(PendingMemory(NodeKind.EVENT, text, T0.replace(minute=minute), subject=text.split(" is ")[0]))
    return memory


def reaction(scores):
    def answer(request):
        rated = {"scores": list(scores)[: len(request.memories)]} if isinstance(request, ScoredRequest) else {}
        return {"choice": "continue", "reason": "busy", **rated}

    return answer


def react_once(mind, memory):
    here = {name: status(name) for name in ("Klaus Mueller", "Maria Lopez")}
    view = WorldView(now=T0.replace(hour=10), step=0, ville=None, state=None, agents=here)
    rider = ScoringRider(mind.ask, KLAUS.name, memory)
    return run(react(rider, KLAUS, memory, view, ["Maria Lopez"], SocialClock(), MindConfig()))


def test_the_queued_memories_are_rated_by_the_next_request_not_a_call_of_their_own():
    memory = queued(memory_with(("Klaus is writing his paper", 3)))
    mind = ScriptedMind({"reaction": reaction([2, 8, 1])})
    react_once(mind, memory)
    assert [request.kind for request in mind.requests] == ["reaction"]
    assert isinstance(mind.requests[0], ScoredRequest) and mind.requests[0].memories == SEEN
    assert memory.pending == []
    stored = {node.description: node.importance for node in memory.stream}
    assert [stored[text] for text in SEEN] == [2, 8, 1]


def test_the_reflection_fires_on_importance_the_rider_brought_in():
    memory = queued(memory_with(("Klaus is writing his paper", 3)))
    assert not reflection_due(memory, 20)  # queued memories count only once rated
    react_once(ScriptedMind({"reaction": reaction([9, 9, 9])}), memory)
    assert reflection_due(memory, 20)


def test_without_ratings_the_answer_stands_and_the_memories_wait():
    memory = queued(memory_with(("Klaus is writing his paper", 3)))
    mind = ScriptedMind({"reaction": reaction([])})
    react_once(mind, memory)
    assert len(mind.requests) == 1 and [p.description for p in memory.pending] == list(SEEN)


def test_a_request_without_the_persona_carries_nothing():
    memory = queued(memory_with(("Klaus is writing his paper", 3)))
    talk = Conversation(
        "Klaus Mueller", "Maria Lopez", T0, 16, lines=[("Klaus Mueller", "Hi!"), ("Maria Lopez", "Hello!")]
    )
    mind = ScriptedMind(
        {
            "conversation_summary": lambda r: {
                "summary": "hello",
                "takeaways": {"Klaus Mueller": "hi", "Maria Lopez": "hi"},
            }
        }
    )
    run(summarize(ScoringRider(mind.ask, KLAUS.name, memory), talk))
    assert not isinstance(mind.requests[0], ScoredRequest) and len(memory.pending) == len(SEEN)


def test_a_memory_worded_like_one_already_rated_keeps_that_rating_and_is_not_asked_again():
    memory = queued(memory_with(("Maria Lopez is studying", 6)), (*SEEN, "Maria Lopez is studying"))
    mind = ScriptedMind({"reaction": reaction([8, 1])})
    react_once(mind, memory)
    assert mind.requests[0].memories == SEEN[1:]  # each new text once; the known one not at all
    assert memory.pending == []
    ratings = [(node.description, node.importance) for node in memory.stream][1:]
    assert ratings == [(SEEN[0], 6), (SEEN[1], 8), (SEEN[2], 1), (SEEN[0], 6)]


def test_the_stand_alone_call_asks_only_for_what_is_new():
    memory = queued(memory_with(("Maria Lopez is studying", 6)), SEEN)
    mind = ScriptedMind({"importance": lambda r: {"scores": [7] * len(r.memories)}})
    run(settle_pending(mind.ask, KLAUS, memory))
    assert mind.asked("importance")[0].memories == SEEN[1:]
    assert [node.importance for node in memory.stream][1:] == [6, 7, 7]


def test_queued_memories_seen_before_are_stored_without_a_call_and_the_new_ones_wait():
    memory = queued(memory_with(("Maria Lopez is studying", 6)), SEEN)
    run(settle_known(memory))
    assert [p.description for p in memory.pending] == list(SEEN[1:])
    assert [(node.description, node.importance) for node in memory.stream][1:] == [(SEEN[0], 6)]
