"""Timing for the benchmarks: one method of a running model from outside (to split a run's wall time), and the
median of a few calls (a figure steadier than one call on a busy machine)."""

import statistics
import time
from collections.abc import Callable


def time_calls(owner: object, name: str) -> list[float]:
    """Wrap `owner.<name>` so that the wall time of every call adds up in the returned one-item list (read it after
    the run: it keeps counting until the owner is gone)."""
    method, spent = getattr(owner, name), [0.0]

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    setattr(owner, name, timed)
    return spent


def median_seconds(function: Callable[[], object], runs: int) -> float:
    """The median wall time of `runs` calls of `function`."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)
