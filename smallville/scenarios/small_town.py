"""Which agents a town of n (`--agents n`) holds: the news's sources first, then one household after another.

The first n of the scenario's list were housemates (the first five all live in the artist's co-living space): they
all knew each other and no news was theirs, so a small run showed density 1.000 and nothing spreading. Here the
tracked facts' sources come first (the news has someone to start from), then the rest, taking one person from each
home in turn (home: the persona's living area), so the n start as people who mostly do not live together and meet
about town. The rule reads only the scenario and the personas' homes, never what the news is about.
"""

from typing import TYPE_CHECKING

from agents import load_persona

if TYPE_CHECKING:
    from smallville.scenarios.scenario import Scenario


def homes(scenario: "Scenario") -> dict[str, str]:
    """Each agent's home: the sector of its persona's living area ("Isabella Rodriguez's apartment")."""
    folder = scenario.personas_folder
    return {name: load_persona(folder, name, {}).identity.living_area.split(":")[1] for name in scenario.agent_names}


def mixed_order(scenario: "Scenario") -> list[str]:
    """Every agent: the facts' sources (in the facts' order), then one from each home in turn (scenario order)."""
    names = scenario.agent_names
    sources = [name for fact in scenario.facts for name in fact.sources if name in names]
    first = list(dict.fromkeys(sources))
    where = homes(scenario)
    queues: dict[str, list[str]] = {}
    for name in names:
        if name not in first:
            queues.setdefault(where[name], []).append(name)
    rest = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                rest.append(queue.pop(0))
    return first + rest
