"""The side-by-side captions: a run replayed without its player says so (`serve RUN --beside RUN-without-NAME`)."""

from datetime import datetime
from types import SimpleNamespace

import pytest

from smallville.app.side_by_side import _caption

NOW = datetime(2023, 2, 13, 10, 30)


@pytest.mark.parametrize(
    ("forked_from", "caption"),
    [
        (None, "morning at Mon 10:30"),
        ({"run": "runs/x", "at": "2023-02-13T08:00:00"}, "morning at Mon 10:30"),
        ({"run": "runs/x", "without_player": "Alex Park"}, "morning (without Alex Park) at Mon 10:30"),
    ],
    ids=["a run", "a fork", "without its player"],
)
def test_a_run_without_its_player_is_captioned_so(forked_from, caption):
    town = SimpleNamespace(config={"forked_from": forked_from}, folder=SimpleNamespace(root="runs/morning"), now=NOW)
    assert _caption(town) == caption
