"""Conversations: turns alternate, a talk ends on goodbye or at its line limit, and both sides keep it."""

from agents import Conversation, MindConfig
from agents.cognition.conversing import next_line, remember_conversation, summarize
from memory import BatchingEmbedder, HashingEmbedder, NodeKind
from tests.agents.cognition.scripted import T0, ScriptedMind, memory_with, run
from tests.agents.personas import identity

KLAUS, MARIA = "Klaus Mueller", "Maria Lopez"


def test_turns_alternate_and_a_goodbye_ends_the_talk():
    talk = Conversation(first=KLAUS, second=MARIA, started=T0, max_lines=16)
    mind = ScriptedMind({"conversation_line": lambda r: {"line": f"line {len(r.lines)}", "end": len(r.lines) == 2}})
    memory = memory_with(("Maria Lopez is studying physics", 3))
    speakers = []
    while not talk.ended:
        speaker = talk.speaker
        turn = run(next_line(mind.ask, identity(speaker), memory, talk, "cafe", T0, MindConfig()))
        talk.add_line(speaker, turn.line, turn.end)
        speakers.append(speaker)
    assert speakers == [KLAUS, MARIA, KLAUS] and talk.lines[-1] == (KLAUS, "line 2")


def test_the_line_limit_ends_a_talk_nobody_ends():
    talk = Conversation(first=KLAUS, second=MARIA, started=T0, max_lines=4)
    for index in range(4):
        talk.add_line(talk.speaker, f"line {index}", end=False)
    assert talk.ended and len(talk.lines) == 4


def test_a_line_is_made_from_memories_about_the_partner_and_the_talk_so_far():
    talk = Conversation(
        first=KLAUS, second=MARIA, started=T0, max_lines=16, lines=[(MARIA, "Have you seen the telescope?")]
    )
    memory = memory_with(("Maria Lopez loves the telescope", 4), ("the toaster is idle", 1))
    mind = ScriptedMind({"conversation_line": lambda r: {"line": "Yes!", "end": False}})
    run(next_line(mind.ask, identity(KLAUS), memory, talk, "cafe", T0, MindConfig(conversation_memories=1)))
    (request,) = mind.asked("conversation_line")
    assert request.memories == ("Maria Lopez loves the telescope",) and request.partner == MARIA


def test_a_line_knows_their_last_talk_what_each_was_doing_and_what_the_speaker_thinks_of_the_partner():
    """The original's context: "N minutes ago they were already talking about ..." (within 8 hours), "X was ... when
    X saw Y in the middle of ...", and the relationship, which also joins the focal points."""
    memory = memory_with(("Maria Lopez loves the telescope", 4))
    earlier = T0.replace(hour=8, minute=20)
    chat = f"conversation with {MARIA}: they compared notes on the physics exam"
    run(memory.add(NodeKind.CHAT, chat, created=earlier, importance=4, keywords=(MARIA, "conversation")))
    talk = Conversation(first=MARIA, second=KLAUS, started=T0, max_lines=16, lines=[(MARIA, "Hi Klaus!")])
    talk.doing.update({MARIA: "reading in the library", KLAUS: "writing his paper"})
    mind = ScriptedMind({"conversation_line": lambda r: {"line": "Hi!", "end": False}})
    config = MindConfig()
    turn = run(next_line(mind.ask, identity(KLAUS), memory, talk, "the Ville:Oak Hill College:library", T0, config,
                         "a dear friend from the dorm"))  # fmt: skip
    (request,) = mind.asked("conversation_line")
    prompt = request.messages()[1]["content"]
    assert "It is Monday February 13, 2023, 9:00 am, in the library in Oak Hill College." in prompt
    assert f'40 minutes ago, {KLAUS} and {MARIA} were already talking: "{chat}".' in prompt
    assert (
        f'{KLAUS} was "writing his paper" when {KLAUS} saw {MARIA} in the middle of "reading in the library".' in prompt
    )
    assert f'What {KLAUS} feels and knows about {MARIA}: "a dear friend from the dorm"' in prompt
    assert not request.asks_relationship and turn.relationship == ""
    assert "a dear friend from the dorm" in memory.last_focal_points


def test_a_first_line_without_a_relationship_asks_for_it_in_the_same_answer():
    memory = memory_with(("Maria Lopez loves the telescope", 4))
    talk = Conversation(first=MARIA, second=KLAUS, started=T0, max_lines=16, lines=[(MARIA, "Hi Klaus!")])
    mind = ScriptedMind({"conversation_line": lambda r: {"relationship": "my dormmate", "line": "Hi!", "end": False}})
    turn = run(next_line(mind.ask, identity(KLAUS), memory, talk, "cafe", T0, MindConfig()))
    (request,) = mind.asked("conversation_line")
    assert request.asks_relationship and 'Also give "relationship"' in request.messages()[1]["content"]
    assert turn.relationship == "my dormmate" and len(mind.requests) == 1  # no call of its own


def test_the_partners_focal_points_are_encoded_as_soon_as_the_line_is_said():
    """Maria's turn recalls with what Klaus just said: those texts go to the encoder with Klaus's line, not with her
    turn, and they are exactly the ones her turn asks for."""
    talk = Conversation(
        first=MARIA, second=KLAUS, started=T0, max_lines=16, lines=[(MARIA, "Have you seen the telescope?")]
    )
    memory = memory_with(("Maria Lopez loves the telescope", 4))
    memory.embedder = BatchingEmbedder(HashingEmbedder())
    asked_ahead, recalled = [], []
    request = memory.embedder.request
    memory.embedder.request = lambda texts: asked_ahead.append(list(texts)) or request(texts)
    retrieve = memory.retrieve
    memory.retrieve = lambda queries, **kwargs: recalled.append(list(queries)) or retrieve(queries, **kwargs)
    mind = ScriptedMind({"conversation_line": lambda r: {"line": f"line {len(r.lines)}", "end": False}})

    async def klaus_then_maria():
        turn = await next_line(mind.ask, identity(KLAUS), memory, talk, "cafe", T0, MindConfig())
        ahead = list(asked_ahead)
        talk.add_line(KLAUS, turn.line, turn.end)
        await next_line(mind.ask, identity(MARIA), memory, talk, "cafe", T0, MindConfig())
        return ahead

    ahead = run(klaus_then_maria())
    assert ahead[-1] == recalled[-1] == [KLAUS, f"{KLAUS} Have you seen the telescope? line 1"]


def summarized(answer: dict):
    """A greeting between Klaus and Maria, and its summary as the scripted model answers it."""
    talk = Conversation(first=KLAUS, second=MARIA, started=T0, max_lines=16, lines=[(KLAUS, "hi"), (MARIA, "hello")])
    mind = ScriptedMind({"conversation_summary": lambda r: answer})
    return talk, run(summarize(mind.ask, talk))


def test_both_keep_the_chat_and_their_own_takeaway():
    talk, summary = summarized(
        {"summary": "a greeting", "takeaways": {KLAUS: "Maria is well", MARIA: "Klaus is busy with his paper"}}
    )
    for me, partner, takeaway in ((KLAUS, MARIA, "Maria is well"), (MARIA, KLAUS, "Klaus is busy with his paper")):
        memory = memory_with()
        remember_conversation(memory, me, talk, summary, T0)
        chat, thought = memory.pending
        assert chat.kind == NodeKind.CHAT and chat.partner == partner and chat.lines == tuple(talk.lines)
        assert thought.kind == NodeKind.THOUGHT and thought.description == takeaway and thought.object == partner


def test_the_summary_rates_what_each_keeps_and_both_memories_are_stored_at_once():
    talk, summary = summarized(
        {
            "summary": "a party invitation",
            "takeaways": {KLAUS: "Maria invited me to a party", MARIA: "Klaus may come"},
            "importance": {KLAUS: {"chat": 6, "takeaway": 8}, MARIA: {"chat": 5, "takeaway": 4}},
        }
    )
    assert summary.importance == ((KLAUS, 6, 8), (MARIA, 5, 4))
    memory = memory_with()
    remember_conversation(memory, KLAUS, talk, summary, T0)
    assert memory.pending == []
    chat, thought = memory.stream
    assert (chat.kind, chat.importance, chat.partner, chat.lines) == (NodeKind.CHAT, 6, MARIA, tuple(talk.lines))
    assert (thought.kind, thought.importance, thought.description) == (
        NodeKind.THOUGHT,
        8,
        "Maria invited me to a party",
    )
