"""Thoughts in flight: when an agent's thinking takes effect is fixed by the simulation, never by a model's latency.

A thought started at step s takes effect at the end of step s + `thinking_steps`. With 0 (the paper's lock-step)
every step waits for all of its thoughts. With N >= 1 the town keeps stepping while thoughts are in flight: their
model calls progress whenever the engine waits, and a step waits only for the thoughts due at it, so an agent's
chain of calls overlaps with the next N steps of the others'.

What keeps a run the same at any latency: while it thinks, an agent is frozen for the others. It stands still, does
not perceive, shows what it was doing when it started, cannot be drawn into a talk (smallville/conversations.py),
and what the others' decisions do to it (a talk ending) waits until its thought is applied. A thought itself reads
only its step's snapshot and its own agent (the talk it sees is a copy), so what it decides does not depend on how
far it had got when the town moved on. The rules live in the model and the talks; this module keeps the books.
"""

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from agents import AgentStatus, Decision


@dataclass
class Thought:
    """One agent's thinking under way.

    Attributes:
        task: The thinking, a task on the model's event loop.
        shown: What the others see of the agent meanwhile: its status when it started.
        due: The step at whose end the thought takes effect.
        waiting: What others' decisions did to the agent meanwhile, applied after the thought.
    """

    task: asyncio.Task
    shown: AgentStatus
    due: int
    waiting: list[Callable[[], None]] = field(default_factory=list)


class Thoughts:
    """The thoughts in flight, by agent name.

    Args:
        loop: The model's event loop, on which each thought runs as a task.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._by_name: dict[str, Thought] = {}

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)

    def __iter__(self):
        return iter(list(self._by_name))

    def shown(self, name: str) -> AgentStatus | None:
        """What the others see of a thinking agent (None when it is not thinking)."""
        thought = self._by_name.get(name)
        return thought.shown if thought else None

    def start(self, name: str, thinking: Coroutine[Any, Any, Decision], shown: AgentStatus, due: int) -> None:
        """Put a thought in flight (its calls start the next time the loop runs)."""
        self._by_name[name] = Thought(self._loop.create_task(thinking, name=f"thought of {name}"), shown, due)

    def due(self, step: int) -> list[str]:
        """The thinking agents whose thoughts take effect at this step."""
        return [name for name, thought in self._by_name.items() if thought.due <= step]

    def when_free(self, name: str, effect: Callable[[], None]) -> None:
        """Do `effect` to an agent now, or after its thought is applied if it is thinking."""
        thought = self._by_name.get(name)
        if thought is None:
            effect()
        else:
            thought.waiting.append(effect)

    async def answer(self, names: Iterable[str]) -> dict[str, tuple[Decision, list[Callable[[], None]]]]:
        """Wait for these agents' thoughts; each becomes its decision and the effects that waited for it.

        They are taken out first: if one fails (a spent budget, a model that stays down), every thought in flight
        is cancelled and dropped with the step, as lock-step drops a failed round, and none is awaited twice.
        """
        taken = {name: self._by_name.pop(name) for name in names}
        try:
            decisions = await asyncio.gather(*(thought.task for thought in taken.values()))
        except BaseException:
            for thought in taken.values():
                thought.task.cancel()
            self.cancel()
            raise
        return {
            name: (decision, thought.waiting)
            for (name, thought), decision in zip(taken.items(), decisions, strict=True)
        }

    def cancel(self) -> list[asyncio.Task]:
        """Drop every thought in flight; returns their tasks (cancelled, done once the loop runs again)."""
        tasks = [thought.task for thought in self._by_name.values()]
        for task in tasks:
            task.cancel()
        self._by_name.clear()
        return tasks

    async def drop(self) -> None:
        """Drop every thought in flight and wait until their tasks are done."""
        await asyncio.gather(*self.cancel(), return_exceptions=True)
