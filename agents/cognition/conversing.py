"""Conversing (the paper's section 4.2; the original's converse.py): one line per turn, then what each keeps.

Each line comes from the memories the speaker retrieves about its partner, what it feels and knows about them and
the talk so far, in the original's context (their last talk, what each was doing); at the end both keep the talk as
a chat memory and what they take from it as a thought, so news passes from one to the other.
"""

from collections.abc import Sequence
from datetime import datetime

from agents.agent_memory import AgentMemory, PendingMemory, mentioned_names
from agents.cognition.about_person import TALK_SHARE, recall_about
from agents.cognition.asking import Ask
from agents.cognition.reacting import last_talk, minutes_since
from agents.config import MindConfig
from agents.conversation import Conversation
from agents.identity import Identity
from agents.language.answers import ConversationSummary, ConversationTurn
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest
from memory import NodeKind

# The predicate of a talk's takeaway, what the end-of-day look back always reads.
TAKEAWAY = "learned from"


async def next_line(
    ask: Ask, speaker: Identity, memory: AgentMemory, conversation: Conversation, place: str, now: datetime,
    config: MindConfig, relationship: str = "",
) -> ConversationTurn:  # fmt: skip
    """The speaker's next line, in the original's context: their past talk, what each was doing, their relationship.

    `relationship` is what the speaker feels and knows about the partner, if asked already in this talk; a first line
    without it asks for it in the same answer (ConversationLineRequest). It joins the focal points, as the original's
    relationship summary does. The partner's focal points for its answer are known once the line is: their encoding
    starts at once, so the partner's next turn does not wait for them (the same vectors whenever they are encoded).
    What involves the partner is shown first, then only what bears on the talk (about_person.py).
    """
    partner = conversation.partner_of(speaker.name)
    focal = focal_points(partner, conversation.lines, config, relationship)
    memories = await recall_about(
        memory,
        partner,
        focal,
        now=now,
        k=config.conversation_memories,
        weights=config.retrieval_weights,
        others_share=TALK_SHARE,
    )
    past = last_talk(memory, partner)
    request = ConversationLineRequest(
        speaker=speaker,
        partner=partner,
        place=place,
        now=now,
        memories=tuple(memories),
        lines=tuple(conversation.lines),
        max_lines=conversation.max_lines,
        own_activity=conversation.doing.get(speaker.name, ""),
        partner_activity=conversation.doing.get(partner, ""),
        started_by=conversation.first,
        past_chat=past.description if past else "",
        past_chat_minutes=minutes_since(past.created, now) if past else None,
        relationship=relationship,
    )
    turn = await ask(request)
    if not conversation.would_end(turn.end):
        memory.encode_ahead(focal_points(speaker.name, [*conversation.lines, (speaker.name, turn.line)], config))
    return turn


def focal_points(
    partner: str, lines: Sequence[tuple[str, str]], config: MindConfig, relationship: str = ""
) -> list[str]:
    """What a speaker recalls with before its line: its partner, what it thinks of them, and what was said last."""
    recent = " ".join(text for _, text in lines[-config.conversation_focal_lines :])
    recent = recent[: config.conversation_focal_characters]
    points = [partner, relationship] if relationship else [partner]
    return [*points, f"{partner} {recent}".strip()] if recent else points


async def summarize(ask: Ask, conversation: Conversation) -> ConversationSummary:
    """What the talk was about, and what each side takes from it."""
    request = ConversationSummaryRequest(
        first=conversation.first, second=conversation.second, lines=tuple(conversation.lines)
    )
    return await ask(request)


def remember_conversation(
    memory: AgentMemory, me: str, conversation: Conversation, summary: ConversationSummary, now: datetime
) -> None:
    """Keep the chat and this agent's takeaway: stored with the summary's ratings, else queued to be rated."""
    partner = conversation.partner_of(me)
    rating = next(((chat, takeaway) for name, chat, takeaway in summary.importance if name == me), None)
    kept = [
        PendingMemory(
            kind=NodeKind.CHAT,
            description=f"conversation with {partner}: {summary.summary}",
            created=now,
            subject=me,
            predicate="chat with",
            object=partner,
            keywords=(partner, "conversation"),
            partner=partner,
            lines=tuple(conversation.lines),
        )
    ]
    takeaway = dict(summary.takeaways).get(me, "")
    if takeaway:
        kept.append(
            PendingMemory(
                kind=NodeKind.THOUGHT,
                description=takeaway,
                created=now,
                subject=me,
                predicate=TAKEAWAY,
                object=partner,
                keywords=(partner, *mentioned_names(takeaway)),
            )
        )
    for pending, score in zip(kept, rating or (), strict=False):
        memory.add_now(pending.kind, pending.description, created=now, importance=score, **pending.details())
    if rating is None:
        for pending in kept:
            memory.queue(pending)
