"""Conversing (the paper's section 4.2; the original's converse.py): one line per turn, then what each keeps.

Each line comes from the memories the speaker retrieves about its partner and the talk so far; at the end both keep
the talk as a chat memory and what they take from it as a thought, so news passes from one to the other.
"""

from collections.abc import Sequence
from datetime import datetime

from agents.agent_memory import AgentMemory, PendingMemory, mentioned_names
from agents.cognition.asking import Ask
from agents.config import MindConfig
from agents.conversation import Conversation
from agents.identity import Identity
from agents.language.answers import ConversationSummary, ConversationTurn
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest
from memory import NodeKind


async def next_line(
    ask: Ask, speaker: Identity, memory: AgentMemory, conversation: Conversation, place: str, now: datetime,
    config: MindConfig,
) -> ConversationTurn:  # fmt: skip
    """The speaker's next line, from what it remembers about the partner and what was just said.

    The partner's focal points for its answer are known once the line is: their encoding starts at once, so the
    partner's next turn does not wait for them (the same vectors whenever they are encoded).
    """
    partner = conversation.partner_of(speaker.name)
    focal = focal_points(partner, conversation.lines, config)
    memories = await memory.recall(focal, now=now, k=config.conversation_memories, weights=config.retrieval_weights)
    request = ConversationLineRequest(
        speaker=speaker,
        partner=partner,
        place=place,
        now=now,
        memories=tuple(memories),
        lines=tuple(conversation.lines),
        max_lines=conversation.max_lines,
    )
    turn = await ask(request)
    if not conversation.would_end(turn.end):
        memory.encode_ahead(focal_points(speaker.name, [*conversation.lines, (speaker.name, turn.line)], config))
    return turn


def focal_points(partner: str, lines: Sequence[tuple[str, str]], config: MindConfig) -> list[str]:
    """What a speaker recalls with before its line: its partner, and its partner with what was said last."""
    recent = " ".join(text for _, text in lines[-config.conversation_focal_lines :])
    recent = recent[: config.conversation_focal_characters]
    return [partner, f"{partner} {recent}".strip()] if recent else [partner]


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
                predicate="learned from",
                object=partner,
                keywords=(partner, *mentioned_names(takeaway)),
            )
        )
    for pending, score in zip(kept, rating or (), strict=False):
        details = {name: getattr(pending, name) for name in ("subject", "predicate", "object", "keywords")}
        memory.add_now(pending.kind, pending.description, created=now, importance=score, partner=pending.partner,
                   lines=pending.lines, **details)  # fmt: skip
    if rating is None:
        for pending in kept:
            memory.queue(pending)
