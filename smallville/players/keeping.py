"""The moment a player joins at, kept as a fork point: the run without the player is replayed from it.

`run.py compare RUN` forks the run at its last kept checkpoint from before the player joined
(smallville/runs/without_player.py); a run simulated without --keep-checkpoints keeps none, so joining keeps the
checkpoint it starts from (the model is at that checkpoint, as loaded).
"""

from smallville.runs.kept_checkpoints import kept_checkpoints, write_kept


def keep_moment(store, model) -> None:
    """Keep the run's last checkpoint for forks, unless it is kept already; the model must be at that checkpoint."""
    if store.snapshot is None or store.snapshot.now != model.now or model.now in kept_checkpoints(store.folder):
        return
    write_kept(store.folder, store.snapshot.state, model)
