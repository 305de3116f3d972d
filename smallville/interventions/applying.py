"""Applying interventions to a running town, and checking them against it before a run starts.

What each kind does is the paper's: a whisper is a memory the agent is handed (its importance scored now, as the CLI's
`whisper` does); a broadcast is an event everyone remembers, rated with their next batch of perceptions; an object's
new state is put on the map, where the agents who see it notice it as any event (and may react to it,
agents/cognition/reacting.py). A player's moves and lines (join, move, say, leave) are the players' room's
(smallville/players/). Each applied intervention is one `intervention` entry in the event log.
"""

from difflib import get_close_matches

from agents import PendingMemory
from environment import Ville, in_state
from memory import NodeKind
from smallville.interventions.records import PLAYER_KINDS, Intervention, InterventionError
from smallville.players import apply_player_intervention, check_player_intervention

# How many addresses a wrong one is answered with.
NEAREST = 3


def nearest_addresses(ville: Ville, address: str, n: int = NEAREST) -> list[str]:
    """The object addresses of the map closest in spelling to `address` (case aside), else those of its arena."""
    addresses = ville.object_addresses()
    lowered = {known.lower(): known for known in addresses}
    close = get_close_matches(address.lower(), list(lowered), n=n, cutoff=0.5)
    if close:
        return [lowered[item] for item in close]
    arena = address.rsplit(":", 1)[0].lower()
    return [known for known in addresses if known.lower().startswith(arena + ":")][:n]


def check_object(ville: Ville, address: str, where: str) -> None:
    """Refuse an address that is not an object of the map, naming the nearest ones.

    Raises:
        InterventionError: One line: the address, where it was given, the nearest addresses.
    """
    if address in set(ville.object_addresses()):
        return
    nearest = nearest_addresses(ville, address)
    hint = f"the nearest: {'; '.join(map(repr, nearest))}" if nearest else f"objects look like {_example(ville)!r}"
    raise InterventionError(f"{where}: {address!r} is not an object of the map; {hint}")


def check_interventions(
    interventions: list[Intervention], agent_names: list[str], ville: Ville, where: str, start=None
) -> None:
    """Every target against the town: agents by name, objects by address; times not before the start.

    Raises:
        InterventionError: Naming the first wrong entry and the fix.
    """
    names = set(agent_names)
    for index, item in enumerate(interventions, start=1):
        at = f"{where}, intervention {index}"
        if start is not None and item.time < start:
            raise InterventionError(
                f"{at}: at {item.time:%Y-%m-%d %H:%M}, before the run starts ({start:%Y-%m-%d %H:%M}); "
                "give a later time"
            )
        if item.kind in PLAYER_KINDS:
            check_player_intervention(ville, agent_names, item, at)
        elif item.kind == "object":
            check_object(ville, item.target, at)
        elif item.kind == "whisper":
            unknown = [name for name in item.targets if name not in names]
            if unknown:
                raise InterventionError(
                    f"{at}: no agent named {', '.join(map(repr, unknown))} in this town; choose from: "
                    f"{', '.join(agent_names)}"
                )


def apply_intervention(model, item: Intervention) -> None:
    """Change the town now as the intervention says, and log it."""
    now = model.now
    if item.kind in PLAYER_KINDS:
        apply_player_intervention(model, item)
        return
    if item.kind == "object":
        model.state.set_object_state(item.target, in_state(item.target, item.text))
        model.log("", "intervention", f"{_object_name(item.target)} is {item.text}", intervention="object",
                  target=item.target, address=item.target)  # fmt: skip
        return
    names = list(item.targets) if item.kind == "whisper" else [agent.name for agent in model.people]
    model.settle(names)  # their thoughts in flight would otherwise read their memories while this changes them
    if item.kind == "whisper":
        for name in names:
            model.run_async(model.by_name[name].whisper(item.text, now))
            model.log(name, "intervention", item.text, intervention="whisper", target=name)
        return
    for agent in model.people:
        agent.memories.queue(
            PendingMemory(
                kind=NodeKind.EVENT,
                description=item.text,
                created=now,
                subject="broadcast",
                predicate="heard",
                keywords=("broadcast",),
            )
        )
    model.log("", "intervention", item.text, intervention="broadcast", target="everyone")


def _object_name(address: str) -> str:
    return "the " + address.rsplit(":", 1)[-1].removeprefix("the ")


def _example(ville: Ville) -> str:
    addresses = ville.object_addresses()
    return addresses[0] if addresses else f"{ville.world}:sector:arena:object"
