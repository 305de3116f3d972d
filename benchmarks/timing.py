"""Timing one method of a running model from outside: what the benchmarks use to split a run's wall time."""

import time


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
