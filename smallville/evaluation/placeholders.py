"""A battery's placeholders for one agent, from its persona and its own memories of the run.

Only what the agent itself could know is used: the people it talked with or whose names its memories hold, and the
events it saw. When a run gives nothing (a fresh town), a neutral phrase stands in, so every question stays askable.
"""

from collections import Counter
from collections.abc import Iterable

from memory import MemoryNode, NodeKind
from smallville.social import town_names

NO_ACQUAINTANCE = "a neighbour"
NO_EVENT = "something that happened around you"
# Events that make no news: idle objects and sleepers.
_DULL = ("is idle", "sleeping", "asleep")


def placeholders(name: str, nodes: Iterable[MemoryNode], people: list[str]) -> dict[str, str]:
    """The values of {name}, {first_name}, {acquaintance}, {stranger} and {event} for one agent.

    {acquaintance} is whom it talked with most (else whom its talks and thoughts name most); {stranger} the first
    agent of the town its memories never name; {event} its most important event memory about something else.
    """
    talked, named, known, names = Counter(), Counter(), set(), town_names(tuple(people))
    best_event: MemoryNode | None = None
    for node in nodes:
        if node.partner and node.partner != name:
            talked[node.partner] += 1
        others = names.named_in(node.description) - {name}
        if node.kind != NodeKind.EVENT:  # seeing someone is not knowing them
            named.update(others)
        known |= others | ({node.partner} if node.partner else set())
        if _newsworthy(node, name) and (
            best_event is None or (node.importance, node.created) >= (best_event.importance, best_event.created)
        ):
            best_event = node
    acquaintance = next(iter(talked.most_common(1) or named.most_common(1)), (NO_ACQUAINTANCE, 0))[0]
    strangers = [person for person in people if person != name and person not in known]
    others = [person for person in people if person != name]
    stranger = (strangers or others or [NO_ACQUAINTANCE])[0]
    return {
        "name": name,
        "first_name": name.split(maxsplit=1)[0],
        "acquaintance": acquaintance,
        "stranger": stranger,
        "event": best_event.description if best_event else NO_EVENT,
    }


def _newsworthy(node: MemoryNode, name: str) -> bool:
    """An event it saw about something other than itself, not an idle object or a sleeper."""
    own = node.description.startswith(name)
    return node.kind == NodeKind.EVENT and not own and not any(word in node.description for word in _DULL)
