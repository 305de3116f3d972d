"""Which TownSource a panel reads: the replay model is one itself; a live model is read through LiveTown."""

from smallville.app.live import LiveTown
from smallville.app.replay import ReplayModel
from smallville.app.views import TownSource


def town_of(model) -> TownSource:
    """The panels' view of a SolaraViz model, live or replayed."""
    return model if isinstance(model, ReplayModel) else LiveTown(model)
