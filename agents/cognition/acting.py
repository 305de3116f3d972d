"""Acting: resolving the schedule's next action to a place among those the agent knows, and the path there.

One structured request resolves several upcoming actions of a block at once (place, emoji, event triple and the
object's state; the original spends 8 calls on each action), and an agent reuses what it resolved before for the
same action text under the same status.
"""

import logging
import re
from datetime import datetime, timedelta

from agents.action import CurrentAction
from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.cognition.planning import decompose_slot
from agents.identity import Identity
from agents.language.answers import ActionChoice, PlaceOption
from agents.language.requests import ActionRequest
from agents.language.requests.acting import MOST_ACTIONS
from agents.records import PlanState, Reuse
from agents.schedule import DaySchedule, minute_of_day
from agents.world_view import WorldView
from environment import PathFinder, SpatialMemory, UnknownAddress, Unreachable, Ville
from memory import NodeKind

logger = logging.getLogger(__name__)

# Actions that happen where the agent stands: inserted by reactions, never sent to the model for a place.
IN_PLACE = re.compile(r"^(talking with|waiting for)\b", re.IGNORECASE)


def place_options(spatial: SpatialMemory, identity: Identity) -> tuple[PlaceOption, ...]:
    """The places an agent may choose for its next action, as the request lists them."""
    return tuple(
        PlaceOption(sector=sector, arena=arena, objects=tuple(objects))
        for sector, arenas in spatial.choices(identity.name, identity.living_area).items()
        for arena, objects in arenas.items()
    )


async def resolve_action(
    ask: Ask,
    identity: Identity,
    spatial: SpatialMemory,
    schedule: DaySchedule,
    minute: int,
    here: tuple[str, str],
    known: dict[str, ActionChoice],
) -> ActionChoice:
    """The place and details of the action running at `minute`, asking for it and the next few if unknown.

    `known` holds what was resolved under the persona's status (records.Reuse: a new status asks again).
    """
    index, _, slot = schedule.slot_at(minute)
    if (key := Reuse.key(identity.currently, slot.activity)) in known:
        return known[key]
    batch = [slot.activity]
    for later in schedule.slots[index + 1 :]:
        if len(batch) == MOST_ACTIONS or not later.final:
            break
        unknown = Reuse.key(identity.currently, later.activity) not in known
        if unknown and later.activity not in batch and not IN_PLACE.match(later.activity):
            batch.append(later.activity)
    request = ActionRequest(
        identity=identity,
        actions=tuple(batch),
        current_sector=here[0],
        current_arena=here[1],
        places=place_options(spatial, identity),
    )
    choices = await ask(request)
    known.update((Reuse.key(identity.currently, action), choice) for action, choice in zip(batch, choices, strict=True))
    return known[key]


def choice_address(world: str, choice: ActionChoice) -> str:
    """The world-tree address of a resolved action."""
    return ":".join(part for part in (world, choice.sector, choice.arena, choice.game_object) if part)


def route(
    ville: Ville, paths: PathFinder, tile: tuple[int, int], address: str, home: str, agent: str
) -> tuple[str, list[tuple[int, int]]]:
    """The address actually reachable and the path to it: the object, else its arena, its sector, then home.

    An agent never stands still forever because a model named a place that does not exist or cannot be reached:
    each fallback is logged.
    """
    parts = address.split(":")
    candidates = [":".join(parts[:depth]) for depth in range(len(parts), 1, -1)] + [home]
    for candidate in candidates:
        try:
            path = paths.path_to_nearest(tile, ville.tiles_of(candidate))
        except (UnknownAddress, Unreachable):
            continue
        if candidate != address:
            logger.warning("%s cannot reach %r; going to %r instead", agent, address, candidate)
        return candidate, path
    logger.warning("%s can reach neither %r nor home %r; staying at %s", agent, address, home, tile)
    return ville.address_at(tile), []


def in_place_action(description: str, address: str, now: datetime, minutes: int, agent: str) -> CurrentAction:
    """An action done where the agent stands (a talk, a wait)."""
    talking = description.lower().startswith("talking")
    return CurrentAction(
        description=description,
        address=address,
        start=now,
        minutes=minutes,
        emoji="💬" if talking else "⌛",
        event=(agent, "is", description),
    )


def minutes_left(schedule: DaySchedule, now: datetime) -> int:
    """Minutes until the slot running now ends (at least 1)."""
    minute = now.hour * 60 + now.minute
    _, start, slot = schedule.slot_at(minute)
    end = now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(minutes=start + slot.minutes)
    return max(1, int((end - now).total_seconds() // 60))


async def next_action(
    ask: Ask,
    identity: Identity,
    plan: PlanState,
    reuse: Reuse,
    spatial: SpatialMemory,
    memory: AgentMemory,
    view: WorldView,
    tile: tuple[int, int],
    paths: PathFinder,
    observation: bool,
) -> None:
    """Move on to the schedule's action running now: decompose its block if needed, find its place, walk there.

    An action that goes on (the same text, only its slot grew) keeps its place and path; with `observation` on, the
    agent remembers starting a new action as an event.
    """
    now, ville, schedule = view.now, view.ville, plan.schedule
    minute = minute_of_day(now)
    await decompose_slot(ask, identity, schedule, minute, reuse.decompositions)
    _, _, slot = schedule.slot_at(minute)
    minutes = minutes_left(schedule, now)
    current = plan.action
    if current is not None and current.description == slot.activity and current.minutes > 0:
        current.minutes = int((now - current.start).total_seconds() // 60) + minutes
        return
    here = ville.address_at(tile) or ville.arena_address_at(tile)
    if IN_PLACE.match(slot.activity):
        plan.replace_action(in_place_action(slot.activity, here, now, minutes, identity.name))
        return
    place = ville.place_at(tile)
    where = (place.sector or "", place.arena or "")
    choice = await resolve_action(ask, identity, spatial, schedule, minute, where, reuse.action_choices)
    wanted = choice_address(ville.world, choice)
    address, path = route(ville, paths, tile, wanted, identity.living_area, identity.name)
    plan.replace_action(
        CurrentAction(
            description=slot.activity,
            address=address,
            start=now,
            minutes=minutes,
            emoji=choice.emoji,
            event=(choice.subject, choice.predicate, choice.object),
            object_state=choice.object_state if address == wanted else "",
            path=path,
        )
    )
    if observation:
        await memory.add(
            NodeKind.EVENT,
            f"{identity.name} is {slot.activity}",
            created=now,
            importance=choice.importance,
            subject=identity.name,
            predicate=choice.predicate,
            object=choice.object,
            keywords=(identity.name, choice.object),
        )
