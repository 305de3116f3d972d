"""The tiny 2 x 2 grid as Ray tasks on a local instance (2 CPUs), each cell's first worker dying after its first
checkpoint: the cells are retried from their checkpoints and the table equals the local run's."""

import json
import os

import pytest

from smallville.batch import Budget, prepare, results_frame, run_batch

from .conftest import TINY_GRID, comparable, tiny_cells

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(tmp_path_factory.mktemp("ray")))  # fmt: skip
    yield
    ray.shutdown()


def test_ray_cells_survive_a_dying_worker_and_equal_the_local_run(local_ray, tmp_path, local_table):
    from smallville.batch.ray_executor import RayExecutor

    batch = tmp_path / "batch"
    cells = tiny_cells()
    prepare(batch, cells, TINY_GRID)
    executor = RayExecutor(batch, address=None, workers=2, crash_after=1)
    outcomes = run_batch(batch, cells, executor, Budget())

    assert sorted(outcome.status for outcome in outcomes) == ["done"] * 4
    for spec in cells:
        record = json.loads((batch / "cells" / spec.cell_id / "cell.json").read_text())
        assert record["sessions"] == 2, "the retry continued the first attempt's checkpoint"
    assert comparable(results_frame(batch)).equals(comparable(local_table))
