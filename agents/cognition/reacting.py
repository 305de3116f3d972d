"""Reacting (the original's plan.py `_should_react`): on noticing another agent, talk, wait, or keep going.

The gates are the original's: both awake, neither already talking, not in the no-talk hour, and the pair not in its
cool-down since their last talk; waiting is offered only when both are headed for the same place or object, as the
original's decide_to_react. Ours adds a short cool-down after deciding not to talk, so the same two agents passing
each other all afternoon are not asked about each other at every change of activity; a wait holds the person back
only while it lasts, so the talk a wait puts off may still happen.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil

from agents.agent_memory import AgentMemory
from agents.cognition.about_person import recall_about
from agents.cognition.asking import Ask
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.answers import Reaction
from agents.language.requests import ReactionRequest
from agents.language.requests.planning import LONGEST_ACTIVITY
from agents.records import SocialClock
from agents.world_view import AgentStatus, WorldView
from memory import MemoryNode, NodeKind


@dataclass(frozen=True)
class ReactionOutcome:
    """What a reaction changes: a talk to start, or a wait to fit into the schedule (activity, minutes).

    A talk comes with its opening line when the answer gave one.
    """

    talk_to: str | None = None
    opening: str = ""
    relationship: str = ""
    wait: tuple[str, int] | None = None


def may_react(me: AgentStatus, other: AgentStatus, now: datetime, may_chat: bool, quiet_hour: int) -> bool:
    """The original's gates for starting a talk."""
    if me.sleeping or other.sleeping or me.talking_with or other.talking_with:
        return False
    return now.hour != quiet_hour and may_chat


def reaction_candidates(
    me: AgentStatus, noticed: list[str], view: WorldView, clock: SocialClock, config: MindConfig
) -> list[str]:
    """The agents just noticed whom this agent may react to now, nearest first."""
    now = view.now
    if clock.paused(now):
        return []
    return [
        other
        for other in noticed
        if clock.may_reconsider(other, now)
        and may_react(me, view.agents[other], now, clock.may_chat(other, now), config.quiet_hour)
    ]


async def decide_reaction(
    ask: Ask,
    identity: Identity,
    memory: AgentMemory,
    view: WorldView,
    me: AgentStatus,
    other: AgentStatus,
    config: MindConfig,
    walking: bool = False,
) -> Reaction:
    """Ask whether to talk to, wait for, or ignore another agent, from what the agent remembers of them.

    The memories shown are the paper's retrieval (recency, relevance, importance with the configured weights) for
    the other person and what they are doing, what involves the other first (about_person.py); the last talk with
    them is looked up as a fact with how long ago it was, the original's "last chatted at".
    """
    focal = [other.name, f"{other.name} is {other.activity}"]
    memories = tuple(
        await recall_about(
            memory, other.name, focal, now=view.now, k=config.reaction_memories, weights=config.retrieval_weights
        )
    )
    last = last_talk(memory, other.name)
    request = ReactionRequest(
        identity=identity,
        now=view.now,
        own_activity=me.activity,
        other=other.name,
        other_activity=other.activity,
        memories=memories,
        last_chat=last.description if last else "",
        last_chat_minutes=minutes_since(last.created, view.now) if last else None,
        shared_place=shared_place(me, other) if walking else "",
    )
    return await ask(request)


def last_talk(memory: AgentMemory, partner: str) -> MemoryNode | None:
    """The agent's memory of its last talk with `partner`, if they ever talked."""
    return next((node for node in memory.stream.about(partner) if node.kind == NodeKind.CHAT), None)


def minutes_since(then: datetime, now: datetime) -> int:
    """Whole minutes from `then` to `now` (0 if `then` is later)."""
    return max(0, int((now - then).total_seconds() // 60))


def shared_place(me: AgentStatus, other: AgentStatus) -> str:
    """The object both are headed for, if the same ("" if not): the original's gate for waiting.

    Waiting is for a bathroom or a counter, never merely for being in the same room.
    """
    return me.address if me.address and me.address == other.address and me.address.count(":") == 3 else ""


async def react(
    ask: Ask,
    identity: Identity,
    memory: AgentMemory,
    view: WorldView,
    candidates: list[str],
    clock: SocialClock,
    config: MindConfig,
    walking: bool = False,
) -> ReactionOutcome:
    """Consider the nearest candidate: talk, wait until it is free, or carry on.

    Carrying on holds that person back for the short declined-talk cool-down; a wait only while it lasts, so the two
    may still talk when it is over. A wait is offered, as in the original, only to an agent on its way (`walking`)
    to the object the other is using.
    """
    if not candidates:
        return ReactionOutcome()
    me, other = view.agents[identity.name], view.agents[candidates[0]]
    clock.paused_until = view.now + timedelta(minutes=config.pause_after_reaction_minutes)
    reaction = await decide_reaction(ask, identity, memory, view, me, other, config, walking)
    if reaction.choice == "talk":
        return ReactionOutcome(talk_to=other.name, opening=reaction.opening, relationship=reaction.relationship)
    if reaction.choice == "wait":
        minutes = wait_minutes(other, view.now, config)
        clock.reactions[other.name] = view.now + timedelta(minutes=minutes)
        return ReactionOutcome(wait=(waiting_for(other), minutes))
    clock.reactions[other.name] = view.now + timedelta(minutes=config.reaction_cooldown_minutes)
    return ReactionOutcome()


def waiting_for(other: AgentStatus) -> str:
    """The inserted activity of a wait: "waiting for Maria Lopez to finish using the piano" (no detail, no nesting)."""
    activity = re.sub(r"\s*\([^)]*\)\s*$", "", other.activity).strip()
    if not activity or re.match(r"(waiting|talking) ", activity):
        return f"waiting for {other.name}"
    return f"waiting for {other.name} to finish {activity}"[:LONGEST_ACTIVITY]


def wait_minutes(other: AgentStatus, now: datetime, config: MindConfig) -> int:
    """How long to wait for someone busy: until their action ends, in whole 5 minutes, within the configured bounds."""
    ends = other.action_ends or now
    left = int((ends - now).total_seconds() // 60)
    return min(config.longest_wait_minutes, max(config.shortest_wait_minutes, 5 * ceil(left / 5)))
