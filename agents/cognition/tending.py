"""Reacting to the world (the paper's section 3.2): an object in a state the world's own rules did not make.

A user (or a scenario's timeline) may write any object's state in plain words: "the stove is burning". An agent who
sees it remembers it as any event and, as for any observation, decides whether to react; a reaction is an activity
done at the object ("turning off the stove"), fitted into the schedule as a wait is, and resolved to the object
itself, so the agent walks there and uses it. The world's own rule then sets the object back: in use while the agent
is at it, idle once it leaves.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.answers import ActionChoice, ObjectReaction
from agents.language.requests import ObjectReactionRequest
from agents.records import SocialClock
from agents.world_view import AgentStatus, WorldView
from environment import Event, describe_event

# How important the agent's own errand to the object is as a memory of what it does (1-10): more than routine.
ERRAND_IMPORTANCE = 5


@dataclass(frozen=True)
class Errand:
    """A reaction to an object: the activity to insert, its minutes, and its place resolved to the object."""

    activity: str
    minutes: int
    choice: ActionChoice


def objects_to_consider(me: AgentStatus, in_sight: list[Event], now: datetime, clock: SocialClock) -> list[Event]:
    """The objects in sight in an unusual state that the agent may react to now, nearest first.

    Not while asleep or talking, nor while it considers no one (right after a reaction or a talk), nor an object it
    decided on within the cool-down. Every such object in sight counts, not only one just noticed: an agent who
    first saw the stove burning while asleep, or while it considered no one, decides once it is free, and one whose
    errand did not put the object back (it was set again, or the errand was cut short) decides again after the
    cool-down.
    """
    if not in_sight or me.sleeping or me.talking_with or clock.paused(now):
        return []
    return [event for event in in_sight if clock.may_reconsider(event.subject, now)]


async def tend(
    ask: Ask,
    identity: Identity,
    memory: AgentMemory,
    view: WorldView,
    event: Event,
    clock: SocialClock,
    config: MindConfig,
) -> Errand | None:
    """Ask whether to see to the object of `event` (as seen this step): the errand if so, else None; a cool-down both.

    The event is the one perceived, not the object's state now: a thought reads only its step's snapshot.
    """
    me = view.agents[identity.name]
    address = event.subject
    clock.paused_until = view.now + timedelta(minutes=config.pause_after_reaction_minutes)
    recalled = await memory.recall(
        [describe_event(event), address.rsplit(":", 1)[-1]],
        now=view.now,
        k=config.reaction_memories,
        weights=config.retrieval_weights,
    )
    request = ObjectReactionRequest(
        identity=identity,
        now=view.now,
        own_activity=me.activity,
        own_place=me.address,
        object_address=address,
        state=event.description,
        memories=tuple(recalled),
    )
    reaction: ObjectReaction = await ask(request)
    # Decided either way: not asked again while the errand is under way, nor at every step while it stays in sight.
    clock.reactions[address] = view.now + timedelta(minutes=config.reaction_cooldown_minutes)
    if not reaction.react:
        return None
    return Errand(reaction.activity, reaction.minutes, errand_choice(identity.name, reaction.activity, event))


def errand_choice(name: str, activity: str, event: Event) -> ActionChoice:
    """The place and details of an errand to an object: the object itself, in use by the agent while it is there."""
    _, sector, arena, game_object = event.subject.split(":")
    return ActionChoice(
        action=activity,
        sector=sector,
        arena=arena,
        game_object=game_object,
        emoji="❗",
        subject=name,
        predicate="is",
        object=game_object,
        object_state=f"being used by {name} for {activity}",
        importance=ERRAND_IMPORTANCE,
    )
