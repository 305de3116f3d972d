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
