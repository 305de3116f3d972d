"""A tiny 2 x 2 grid (two conditions, two seeds) of three agents for two simulated hours, offline and hashed."""

import pytest

from smallville.batch import Budget, LocalExecutor, expand, prepare, results_frame, run_batch, validate_grid

TINY_GRID = {
    "seeds": [0, 1],
    "scenarios": ["the_ville_n3"],
    "until": "2023-02-13T02:00:00",
    "checkpoint_minutes": 30,
    "parameters": {"embedder": "hashing"},
    "conditions": {"full": {}, "no_reflection_planning": {"reflection": False, "planning": False}},
}
# The same grid as `run.py batch` flags.
TINY_FLAGS = [
    "--conditions", "full,no_reflection_planning", "--seeds", "0-1", "--scenario", "the_ville_n3",
    "--until", "2023-02-13T02:00:00", "--checkpoint-minutes", "30", "--embedder", "hashing",
]  # fmt: skip


def tiny_cells():
    return expand(validate_grid(TINY_GRID, "tiny"))


def comparable(frame):
    """The table without what differs between two runs of the same cells (wall time)."""
    return frame.drop(columns=["wall_seconds"]).reset_index(drop=True)


@pytest.fixture(scope="session")
def local_batch(tmp_path_factory):
    """The tiny grid run once in two local worker processes: (batch folder, outcomes)."""
    batch = tmp_path_factory.mktemp("local") / "batch"
    cells = tiny_cells()
    prepare(batch, cells, TINY_GRID)
    outcomes = run_batch(batch, cells, LocalExecutor(batch, workers=2), Budget())
    return batch, outcomes


@pytest.fixture(scope="session")
def local_table(local_batch):
    return results_frame(local_batch[0])
