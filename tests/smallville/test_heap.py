"""The collector's settings for a run: the built town frozen while it runs, and handed back afterwards."""

import gc
import weakref

import pytest

from smallville.heap import YOUNG_GENERATION_SIZE, collector_paused, settled_heap


class _Node:
    """A cycle: reference counting alone never frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.slow  # collects the whole heap of the worker
def test_a_run_collects_young_objects_less_often_and_restores_the_settings():
    before = gc.get_threshold()
    with settled_heap():
        assert gc.get_threshold() == (YOUNG_GENERATION_SIZE, *before[1:])
    assert gc.get_threshold() == before


@pytest.mark.slow  # collects and freezes the whole heap of the worker
def test_what_exists_when_the_run_starts_is_frozen_and_handed_back_at_its_end():
    gc.collect()
    permanent = gc.get_freeze_count()  # CPython 3.12 keeps its immortal objects there
    town = _Node()
    gone = weakref.ref(town)
    with settled_heap():
        assert gc.get_freeze_count() > permanent
        del town
        gc.collect()
        assert gone() is not None  # frozen: no collection walks it during the run
    gc.collect()
    assert gone() is None  # a batch worker's next cell does not keep this one's town
    assert gc.get_freeze_count() == permanent


@pytest.mark.slow  # collects the whole heap of the worker
def test_garbage_left_by_the_build_is_collected_not_frozen():
    garbage = weakref.ref(_Node())
    with settled_heap():
        assert garbage() is None


def test_building_pauses_the_collector_and_leaves_it_as_it_was():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner block does not switch it on under an outer one
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller that had switched it off keeps it off
    finally:
        gc.enable()


@pytest.mark.slow  # collects the whole heap of the worker
def test_what_a_build_made_waits_in_the_oldest_generation_for_the_next_full_collection():
    with collector_paused():
        made = _Node()
    assert gc.get_count()[0] < 100  # no young collection has to walk what the build made
    assert any(node is made for node in gc.get_objects(generation=2))
    gone = weakref.ref(made)
    del made
    gc.collect()
    assert gone() is None
