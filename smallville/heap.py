"""The garbage collector during a long run: the built town out of its sight, young collections rarer.

CPython's cyclic collector walks every tracked object it collects, and a full collection walks them all: the
imports (litellm's alone are hundreds of thousands of objects), the map, the personas and every memory. Measured on
the tiled scale series (`benchmarks/bench_scale.py --layout tiled`, 4 simulated hours after a 1-hour warm-up,
2026-11-24): with CPython's settings the collector took 8% of the 25-agent town's wall and 12% of the 250-agent
town's, the costlier share because a bigger heap misses the caches on every object it visits (a young collection
reads the headers of the old objects its young ones point to). A full collection of the 25-agent town held a day at
300 ms a call for 232 ms once a day, with 17 answers waiting.

So a run freezes what exists once the town is built (`gc.freeze`: those objects are never walked again; they are
freed by reference counting as before, and only a cycle among them waits for the run's end, when they are thawed)
and collects the young generation every YOUNG_GENERATION_SIZE net allocations instead of CPython's 700: most young
objects die by reference counting before a collection sees them, and each collection's fixed cost is paid less often.
Every town size got 10-20% faster per agent-hour (README, the scale series). The browser app keeps CPython's
settings: one server process may hold several live towns, which a context for one run does not fit.

Building a town pauses the collector (`collector_paused`, every door: SmallvilleModel's build). The build makes
millions of objects that all live on (cells, personas, memories, requests' records); each young collection walked the
newest of them only to find them alive, and the older generations were walked again as they grew: 1.1-1.6 s of the
1,000-person town's 6-7 s build (benchmarks/RESULTS.md, "Start to first step under 10 s"). What the build leaves as
garbage cycles waits for the first collection after it (at once with `settled_heap`).
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Net allocations of tracked objects between two young collections (CPython's default: 700). Measured on the
# 250-agent tiled town (4 simulated hours, frozen build): the collector's time fell from 1.4 s at 700 to 0.4 s at
# 10,000, with no change in peak memory.
YOUNG_GENERATION_SIZE = 10_000
# Objects CPython keeps in its permanent generation before anything is frozen (its own, from its start).
_FROZEN_AT_START = gc.get_freeze_count()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside this block (while a town is built); the collector as it was afterwards.

    Reference counting frees as always; only cycles wait for the block's end. Nested blocks and a caller that had
    switched the collector off are left as they were.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            _to_oldest_generation()
            gc.enable()


def _to_oldest_generation() -> None:
    """Move every object the collector tracks to its oldest generation, walking none (unless a run froze some).

    The objects a build made are all young: the first young collection after it walked every one of them (0.1 s at
    1,000 people) only to find them alive. In the oldest generation they wait for the next full collection, which
    `settled_heap` makes at once. Freezing and thawing moves them in one step; inside a run (`settled_heap`'s frozen
    objects) they stay young rather than thaw the run's.
    """
    if gc.get_freeze_count() <= _FROZEN_AT_START:
        gc.freeze()
        gc.unfreeze()


@contextmanager
def settled_heap() -> Iterator[None]:
    """While a built town runs: what exists now frozen out of the collector's sight, young collections rarer.

    On exit the frozen objects are handed back to the collector (a batch worker runs one cell after another in one
    process: each town must be collectable once it has run) and the thresholds are restored.
    """
    thresholds = gc.get_threshold()
    gc.collect()  # what the build left as garbage goes now, not frozen for the whole run
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION_SIZE, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
