"""`run.py models check`'s requests (one of every kind), built once per test process and shared.

Each build makes a town, and several test modules read the requests while pytest collects them (their kinds name the
parametrized cases), so building them once saves every test process that work. The requests are frozen dataclasses;
each caller gets its own dict of them.
"""

from functools import cache

from smallville.model_trial import sample_requests


@cache
def _built(judge: bool) -> dict:
    return sample_requests(judge=judge)


def sampled_requests(judge: bool = False) -> dict:
    """`sample_requests(judge)`, built on the first call: a dict of the request kinds to one request of each."""
    return dict(_built(judge))
