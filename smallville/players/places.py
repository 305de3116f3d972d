"""Where a player may stand: a place named in words found in the world tree, a tile in it, and earshot.

A user names a place as they would say it ("Hobbs Cafe", "hobbs cafe:cafe") or by its full address; the player then
stands on a walkable tile of it, chosen the same way every time (a replay puts the player on the same tile).
"""

from difflib import get_close_matches

from environment import Ville

# How many place names a wrong one is answered with.
NEAREST = 3


class PlaceError(ValueError):
    """A place that is not in the town, or has nowhere to stand; the message names the nearest places."""


def place_addresses(ville: Ville) -> list[str]:
    """Every sector and arena of the town, as full addresses, in the map's order."""
    addresses = []
    for sector in ville.sectors():
        addresses.append(f"{ville.world}:{sector}")
        addresses.extend(f"{ville.world}:{sector}:{arena}" for arena in ville.arenas(sector))
    return addresses


def find_place(ville: Ville, name: str) -> str:
    """The full address of a sector or arena named `name` (its address, or without the world; case aside).

    Raises:
        PlaceError: Naming the closest places.
    """
    wanted = " ".join(name.split()).casefold()
    known = place_addresses(ville)
    by_key = {}
    for address in known:
        by_key.setdefault(address.casefold(), address)
        by_key.setdefault(address.split(":", 1)[1].casefold(), address)
    if wanted in by_key:
        return by_key[wanted]
    close = get_close_matches(wanted, list(by_key), n=NEAREST, cutoff=0.5)
    hint = "; ".join(repr(by_key[key].split(":", 1)[1]) for key in close) or ", ".join(ville.sectors()[:5])
    raise PlaceError(f"no place named {name!r} in {ville.world}; the nearest: {hint}")


def tile_of_place(ville: Ville, address: str) -> tuple[int, int]:
    """A tile to stand on in the place: its first spawning tile, else its walkable tile nearest its middle.

    Raises:
        PlaceError: If the place has no walkable tile.
    """
    spawns = ville.spawn_tiles(address)
    if spawns:
        return spawns[0]
    walkable = [tile for tile in ville.tiles_of(address) if ville.is_walkable(tile)]
    if not walkable:
        raise PlaceError(f"{address!r} has no tile to stand on; choose another place")
    middle_x = sum(x for x, _ in walkable) / len(walkable)
    middle_y = sum(y for _, y in walkable) / len(walkable)
    return min(walkable, key=lambda tile: ((tile[0] - middle_x) ** 2 + (tile[1] - middle_y) ** 2, tile))


def tile_near(ville: Ville, tile: tuple[int, int]) -> tuple[int, int]:
    """A walkable tile beside `tile` in the same arena (to stand by someone), else `tile` itself."""
    arena = ville.arena_address_at(tile)
    x, y = tile
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
        beside = (x + dx, y + dy)
        if ville.is_walkable(beside) and ville.arena_address_at(beside) == arena:
            return beside
    return tile


def earshot(ville: Ville, one: tuple[int, int], other: tuple[int, int], radius: int) -> bool:
    """Whether two tiles are within talking reach: in the same arena and within `radius` tiles (the vision square)."""
    near = max(abs(one[0] - other[0]), abs(one[1] - other[1])) <= radius
    return near and ville.arena_address_at(one) == ville.arena_address_at(other)
