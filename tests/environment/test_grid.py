import random

from environment import make_grid


def test_the_grid_covers_the_map_and_is_addressed_by_x_y(ville):
    grid = make_grid(ville, random.Random(3))
    assert grid.dimensions == (140, 100)
    assert not grid.torus
    assert grid[(139, 99)].coordinate == (139, 99)
    assert len(grid.all_cells) == 140 * 100


def test_the_grid_draws_from_the_given_random(ville):
    first = make_grid(ville, random.Random(3)).select_random_empty_cell().coordinate
    again = make_grid(ville, random.Random(3)).select_random_empty_cell().coordinate
    assert first == again


def test_the_grid_links_each_cell_as_mesas_moore_grid_does():
    from mesa.discrete_space import OrthogonalMooreGrid

    class Small:
        width, height = 5, 4

    ours = make_grid(Small, random.Random(0))
    mesas = OrthogonalMooreGrid((5, 4), torus=False, capacity=None, random=random.Random(0))
    for coordinate, cell in mesas._cells.items():
        expected = [(key, other.coordinate) for key, other in cell.connections.items()]
        assert [(key, other.coordinate) for key, other in ours[coordinate].connections.items()] == expected
    assert {c.coordinate for c in ours[(0, 0)].neighborhood} == {(0, 1), (1, 0), (1, 1)}
