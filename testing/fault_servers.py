"""Loopback model servers that fail on purpose, for the fault campaign's tests.

`FaultInjectingServer` injects faults at random (seeded) into a share of its chat answers: before each chat request it
draws, with probability `rate`, one of the loopback server's fault kinds and queues it for that request, and it counts
what it injected, so a test can check that every fault was retried, repaired or fallen back, and counted.
`DyingServer` answers a number of requests, then dies as a killed server process does. Both leave `LoopbackServer`
unchanged.
"""

import random
from collections import Counter

from aiohttp import web

from testing.loopback_server import FAULTS, LoopbackServer

# Faults a client must retry (the server errs or never answers) and faults it must repair (a bad answer).
TRANSIENT = ("429", "500", "hang")
BAD_ANSWERS = ("empty", "malformed", "long")


class FaultInjectingServer(LoopbackServer):
    """`with FaultInjectingServer(rate=0.2, seed=1, hang_s=3) as server: ... server.injected ...`.

    Args:
        rate: The share of chat requests that get a fault.
        seed: Seeds the draws (the order requests arrive in still depends on the client's concurrency).
        kinds: The fault kinds to draw from (all of the loopback server's by default).
        **options: Passed to LoopbackServer (latency, hang_s, lifetime_s, port).
    """

    def __init__(self, rate: float = 0.2, seed: int = 0, kinds: tuple[str, ...] = FAULTS, **options):
        super().__init__(**options)
        self.rate = rate
        self.kinds = kinds
        self.injected: Counter = Counter()
        self.chat_requests = 0
        self._random = random.Random(seed)

    async def _chat(self, request: web.Request) -> web.Response:
        self.chat_requests += 1
        if self._random.random() < self.rate:
            fault = self._random.choice(self.kinds)
            self.injected[fault] += 1
            self.faults.insert(0, fault)
        return await super()._chat(request)

    @property
    def transient(self) -> int:
        """Injected faults the client had to retry."""
        return sum(self.injected[kind] for kind in TRANSIENT)

    @property
    def bad_answers(self) -> int:
        """Injected answers the client had to repair or replace by a fallback."""
        return sum(self.injected[kind] for kind in BAD_ANSWERS)


class DyingServer(LoopbackServer):
    """A loopback model server that answers `answers` chat requests, then dies at the next one.

    Dying, it drops that request's connection and every other one it holds, and stops listening: the client's next
    tries meet a refused connection, as when a model server's process is killed.
    """

    def __init__(self, answers: int, **options):
        super().__init__(**options)
        self.answers = answers
        self.chat_requests = 0

    async def _chat(self, request: web.Request) -> web.Response:
        self.chat_requests += 1
        if self.chat_requests > self.answers:
            self._stop.set()
            request.transport.abort()
            raise ConnectionResetError("the model server was killed")
        return await super()._chat(request)
