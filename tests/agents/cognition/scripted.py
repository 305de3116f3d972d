"""A scripted mind for the cognition tests: answers chosen per request kind, every request kept for inspection."""

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from functools import partial

from agents import AgentMemory, Gateway, GatewayConfig
from agents.language.backends.scripted import ScriptedBackend
from memory import HashingEmbedder, MemoryStream, NodeKind

T0 = datetime(2023, 2, 13, 9, 0)


class ScriptedMind:
    """`ask` for cognition functions whose answers come from `answers[kind](request)` (a dict, sent as JSON)."""

    def __init__(self, answers: dict[str, Callable]):
        self.answers = answers
        self.requests = []
        backend = ScriptedBackend(self._answer)
        self.gateway = Gateway(GatewayConfig(), backends={"offline": backend})
        self.ask = partial(self.gateway.ask, agent="tester")

    def _answer(self, request) -> str:
        self.requests.append(request)
        return json.dumps(self.answers[request.kind](request))

    def asked(self, kind: str) -> list:
        """The requests of one kind, in order."""
        return [request for request in self.requests if request.kind == kind]


def memory_with(*texts: tuple[str, int], kind=NodeKind.EVENT, start: datetime = T0) -> AgentMemory:
    """An agent memory holding the texts with their importance, one minute apart."""
    memory = AgentMemory(MemoryStream(dim=384), HashingEmbedder())
    for minute, (text, importance) in enumerate(texts):
        run(
            memory.add(
                kind,
                text,
                created=start.replace(minute=minute),
                importance=importance,
                keywords=tuple(text.split()[:2]),
            )
        )
    return memory


def run(coroutine):
    """Run one cognition coroutine to its end."""
    return asyncio.run(coroutine)
