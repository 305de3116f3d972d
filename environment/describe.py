"""Places in words, for prompts: where an agent is, what it sees, and which places it may choose among.

Plain English a language model can use, built only from the map, the events seen and the agent's known places.
"""

from environment.ville import Tile, Ville
from environment.world_state import Event, SeenEvent

# Objects the map names by where one stands ("behind the cafe counter"): in a sentence about the object's state,
# the thing itself is meant ("the cafe counter is idle").
_STANDING_PLACE = "behind "


def describe_place(ville: Ville, tile: Tile) -> str:
    """Where a tile is: "Hobbs Cafe (cafe)"; the sector alone where the tile has no arena; the streets off the tree."""
    place = ville.place_at(tile)
    if place.sector is None:
        return f"the streets of {ville.world}"
    return f"{place.sector} ({place.arena})" if place.arena else place.sector


def describe_event(event: Event) -> str:
    """An event as a sentence without its full stop.

    Objects (whose subject is an address) read "the piano is idle"; agents "Klaus Mueller is playing the piano".
    """
    description = event.description or "idle"
    if ":" not in event.subject:
        return f"{event.subject} is {description}"
    name = event.subject.rsplit(":", 1)[-1].removeprefix(_STANDING_PLACE)
    article = "" if name.startswith("the ") else "the "
    return f"{article}{name} is {description}"


def describe_surroundings(ville: Ville, tile: Tile, seen: list[SeenEvent], viewer: str) -> str:
    """Where the viewer is and what it sees, its own event left out.

    E.g. "Isabella Rodriguez is in Hobbs Cafe (cafe). Nearby: the cafe counter is idle; Klaus Mueller is playing
    the piano." or, with nothing else in sight, "... Nearby: nothing of note."
    """
    others = [describe_event(item.event) for item in seen if item.event.subject != viewer]
    nearby = "; ".join(others) if others else "nothing of note"
    return f"{viewer} is in {describe_place(ville, tile)}. Nearby: {nearby}."


def describe_choices(choices: dict[str, dict[str, list[str]]]) -> str:
    """The known places, one sector a line: "Hobbs Cafe: cafe (refrigerator, piano); kitchen (stove)".

    An arena without known objects is named alone; a sector without arenas too ("Johnson Park").
    """
    lines = []
    for sector, arenas in choices.items():
        parts = [f"{arena} ({', '.join(objects)})" if objects else arena for arena, objects in arenas.items()]
        lines.append(f"{sector}: {'; '.join(parts)}" if parts else sector)
    return "\n".join(lines)
