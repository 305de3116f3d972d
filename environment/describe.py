"""Places in words, for prompts: where an agent is, what it sees, and which places it may choose among."""

from environment.ville import Tile, Ville
from environment.world_state import Event, SeenEvent


def describe_place(ville: Ville, tile: Tile) -> str:
    """Where a tile is, in words: "Hobbs Cafe (cafe)", or "Johnson Park" where there is no arena."""
    place = ville.place_at(tile)
    if place.sector is None:
        return f"the streets of {ville.world}"
    return f"{place.sector} ({place.arena})" if place.arena else place.sector


def describe_event(event: Event) -> str:
    """An event in words: "the piano is idle", "Klaus Mueller is playing the piano"."""
    if ":" not in event.subject:
        return f"{event.subject} is {event.description}"
    name = event.subject.rsplit(":", 1)[-1]
    article = "" if name.startswith(("the ", "behind ")) else "the "
    return f"{article}{name} is {event.description}"


def describe_surroundings(ville: Ville, tile: Tile, seen: list[SeenEvent], viewer: str) -> str:
    """Where the viewer is and what it sees, e.g.

    "Isabella Rodriguez is in Hobbs Cafe (cafe). Nearby: the piano is idle; Klaus Mueller is reading a book."
    """
    others = [describe_event(item.event) for item in seen if item.event.subject != viewer]
    nearby = "; ".join(others) if others else "nothing of note"
    return f"{viewer} is in {describe_place(ville, tile)}. Nearby: {nearby}."


def describe_choices(choices: dict[str, dict[str, list[str]]]) -> str:
    """The known places, one sector a line: "Hobbs Cafe: cafe (refrigerator, piano); kitchen (stove)"."""
    lines = []
    for sector, arenas in choices.items():
        parts = [f"{arena} ({', '.join(objects)})" if objects else arena for arena, objects in arenas.items()]
        lines.append(f"{sector}: {'; '.join(parts)}")
    return "\n".join(lines)
