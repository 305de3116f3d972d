import pytest

from environment import UnknownAddress

from .conftest import all_personas, persona_files


def _addresses(tree):
    for world, sectors in tree.items():
        yield world
        for sector, arenas in sectors.items():
            yield f"{world}:{sector}"
            for arena, objects in arenas.items():
                yield f"{world}:{sector}:{arena}"
                for name in objects:
                    yield f"{world}:{sector}:{arena}:{name}"


def test_every_known_place_and_home_resolves_to_tiles(ville):
    count = 0
    for name in all_personas():
        scratch, spatial = persona_files(name)
        for address in _addresses(spatial):
            if address == "the Ville":
                continue
            assert ville.tiles_of(address), address
            count += 1
        assert ville.tiles_of(scratch["living_area"])
    assert count == 1315


@pytest.mark.parametrize(
    ("tile", "address"),
    [
        ((72, 14), "the Ville:Isabella Rodriguez's apartment:main room:bed"),
        ((82, 26), "the Ville:Hobbs Cafe:cafe:piano"),
        ((78, 19), "the Ville:Hobbs Cafe:cafe:behind the cafe counter"),
        ((0, 0), ""),
    ],
    ids=["isabella-bed", "piano", "cafe-counter", "off-the-tree"],
)
def test_tile_to_address(ville, tile, address):
    assert ville.address_at(tile) == address


def test_address_to_tiles_both_ways(ville):
    for tile in ville.tiles_of("the Ville:Hobbs Cafe:cafe:piano"):
        assert ville.address_at(tile) == "the Ville:Hobbs Cafe:cafe:piano"
    with pytest.raises(UnknownAddress, match="'the Ville:Hobbs Cafe:dance floor' is not a place"):
        ville.tiles_of("the Ville:Hobbs Cafe:dance floor")


def test_walls_are_not_walkable(ville):
    y, x = (int(v) for v in next(iter(zip(*ville.collision.nonzero(), strict=True))))
    assert not ville.is_walkable((x, y))
    assert ville.is_walkable((78, 19))
    assert not ville.is_walkable((-1, 5))


def test_spawning_locations(ville):
    tiles = ville.spawn_tiles("the Ville:artist's co-living space:Latoya Williams's room")
    assert tiles and all(ville.address_at(tile).startswith("the Ville:artist's co-living space") for tile in tiles)
