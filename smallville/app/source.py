"""Which TownSource a panel reads: the replay model is one itself; a live model is read through LiveTown."""

from smallville.app.live import LiveTown
from smallville.app.replay import ReplayModel
from smallville.app.views import TownSource
from smallville.baseline import is_offline


def offline(model) -> bool:
    """Whether the town's minds are the offline baseline (a replay: as its run was)."""
    if isinstance(model, ReplayModel):
        return is_offline(model.config.get("llm"), model.config.get("routes"))
    return is_offline(model.gateway.config.model, model.gateway.config.routes)


def town_of(model) -> TownSource:
    """The panels' view of a SolaraViz model, live or replayed."""
    return model if isinstance(model, ReplayModel) else LiveTown(model)
