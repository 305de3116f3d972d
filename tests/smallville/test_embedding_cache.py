"""A town's vectors kept on disk: the next run of the same day encodes almost nothing and runs identically."""

from datetime import datetime

import pytest

from agents.embedder_choice import forget_embedders
from smallville.model import SmallvilleModel

UNTIL = datetime(2023, 2, 13, 9, 0)


def _day(cache) -> tuple[list[dict], object]:
    forget_embedders()  # a fresh process: nothing encoded in memory
    model = SmallvilleModel(
        scenario_name="the_ville_n3", embedder="hashing", rng=0, seconds_per_step=60, embedding_cache=str(cache)
    )
    model.run_until(UNTIL)
    model.close()
    return model.event_log, model.people[0].memories.embedder


@pytest.mark.slow  # two simulated mornings; the cache's own rules are tests/memory/test_vector_cache.py's, fast
def test_a_repeated_day_reads_its_vectors_from_the_file_and_runs_the_same(tmp_path):
    cache = tmp_path / "embeddings.sqlite"
    first_log, first = _day(cache)
    second_log, second = _day(cache)
    assert first.misses > 50 and first.disk_hits == 0
    assert second.misses == 0 and second.disk_hits == first.misses
    assert second_log == first_log
