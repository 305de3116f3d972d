"""Reacting (the original's plan.py `_should_react`): on noticing another agent, talk, wait, or keep going.

The gates are the original's: both awake, neither already talking, not at 11 pm, and the pair not in its cool-down
since their last talk. Ours adds a cool-down after deciding not to react, so the same two agents passing each other
all afternoon are not asked about each other at every change of activity.
"""

from datetime import datetime

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.identity import Identity
from agents.language.answers import Reaction
from agents.language.requests import ReactionRequest
from agents.world_view import AgentStatus, WorldView
from memory import NodeKind

# Memories about the other person shown to the model.
MEMORIES_ABOUT_OTHER = 10
# The original's talk gate: nobody starts a talk during the 11 pm hour.
NO_TALK_HOUR = 23


def may_react(me: AgentStatus, other: AgentStatus, now: datetime, chat_cooldown_until: int | None, step: int) -> bool:
    """The original's gates for starting a talk."""
    if me.sleeping or other.sleeping or me.talking_with or other.talking_with:
        return False
    if now.hour == NO_TALK_HOUR:
        return False
    return chat_cooldown_until is None or step >= chat_cooldown_until


async def decide_reaction(
    ask: Ask, identity: Identity, memory: AgentMemory, view: WorldView, me: AgentStatus, other: AgentStatus
) -> Reaction:
    """Ask whether to talk to, wait for, or ignore another agent, from what the agent remembers of them."""
    about = memory.stream.about(other.name)
    memories = tuple(node.description for node in about[:MEMORIES_ABOUT_OTHER])
    last_chat = next((node.description for node in about if node.kind == NodeKind.CHAT), "")
    request = ReactionRequest(
        identity=identity,
        now=view.now,
        own_activity=me.activity,
        other=other.name,
        other_activity=other.activity,
        memories=memories,
        last_chat=last_chat,
    )
    return await ask(request)
