"""Thoughts in flight: when an agent's thinking takes effect is fixed by the simulation, never by a model's latency.

A thought started at step s that asks a model takes effect at the end of step s + `thinking_steps`; one that asks
none (a reused choice, a reaction its cool-down settles) takes effect at the end of step s, as in lock-step. A
thought of an agent in a talk (its line, or the talk's summary) takes `talk_thinking_steps` instead (0 by default:
its own step), since the partner waits for the line: with N for every thought an 8-line talk lasted 28 simulated
minutes at N = 20 against 1.3 in lock-step (the original's last about 3 minutes). With 0
(the paper's lock-step) every step waits for all of its thoughts. With N >= 1 the town keeps stepping while thoughts
are in flight: their model calls progress whenever the engine waits, and a step waits only for the thoughts due at
it, so an agent's chain of calls overlaps with the next N steps of the others'. Whether a thought asks a model is
known once it has either asked (answered from the cache or not) or finished, which does not depend on latency.
Letting thoughts share ticks instead (each taking effect at the next multiple of N, so that a tick waits once for
all begun in it) was measured and dropped: fewer steps wait, but for as many talks the day took as long or longer
(README, "Thinking that overlaps time").

What keeps a run the same at any latency: while it thinks, an agent is frozen for the others. It stands still, does
not perceive, shows what it was doing when it started, cannot be drawn into a talk (smallville/conversations.py),
and a talk that ends meanwhile reaches it only once its thought is applied. A thought itself reads only its step's
snapshot and its own agent (the talk it sees is a copy), so what it decides does not depend on how far it had got
when the town moved on. A checkpoint waits for the thoughts in flight and keeps their decisions, still to be
applied at their own steps, so a restored run goes on exactly as the uninterrupted one.

A model that fails for good mid-thought is another matter: the thoughts in flight are dropped half done (`answer`), and
a checkpoint of that town would hold none of them, so each would start again on resume and take effect a whole
thinking window late (20 steps: 200 simulated seconds). Such a town is torn (SmallvilleModel.torn) and never
checkpointed; its run resumes from the last checkpoint, and the answers it received since are replayed from the run
folder's journal (agents/language/journal.py): the same thoughts, started at the same steps, decide the same things.
"""

import asyncio
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agents import AgentStatus, Decision
from agents.cognition import together
from agents.decision import summary_from_state, summary_state
from agents.language import ConversationSummary, asks_reported_to


@dataclass
class Thought:
    """One agent's thinking under way.

    Attributes:
        task: The thinking, a task on the model's event loop (a done future once restored from a checkpoint).
        shown: What the others see of the agent meanwhile: its status when it started.
        due: The step at whose end the thought takes effect.
        talks_ended: Its talk's ending (summary, when) if the partner ended it meanwhile, applied before the thought.
        asked: Done once the thought has asked a model (None once restored: it had asked, or it would not be kept).
    """

    task: asyncio.Future
    shown: AgentStatus
    due: int
    talks_ended: list[tuple[ConversationSummary, datetime]] = field(default_factory=list)
    asked: asyncio.Future | None = None

    @property
    def asked_model(self) -> bool:
        """Whether the thought has asked a model (a restored one had: no other is kept past its own step)."""
        return self.asked is None or self.asked.done()

    @property
    def decision(self) -> Decision:
        """What the thought decided (once its task is done)."""
        return self.task.result()


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

    def __getitem__(self, name: str) -> Thought:
        return self._by_name[name]

    def shown(self, name: str) -> AgentStatus | None:
        """What the others see of a thinking agent (None when it is not thinking)."""
        thought = self._by_name.get(name)
        return thought.shown if thought else None

    def start(self, name: str, thinking: Coroutine[Any, Any, Decision], shown: AgentStatus, due: int) -> Thought:
        """Put a thought in flight (its calls start the next time the loop runs)."""
        asked = self._loop.create_future()

        def report() -> None:
            if not asked.done():
                asked.set_result(None)

        with asks_reported_to(report):
            task = self._loop.create_task(thinking, name=f"thought of {name}")
        thought = self._by_name[name] = Thought(task, shown, due, asked=asked)
        return thought

    async def sort_out(self, names: Iterable[str], step: int) -> None:
        """Wait until each of these just-started thoughts has asked a model or finished.

        One that finished without asking takes effect at `step` (its own): no latency stands between it and its
        decision, and the agent is not held still for nothing.
        """
        thoughts = [self._by_name[name] for name in names]
        await asyncio.gather(
            *(asyncio.wait((thought.task, thought.asked), return_when=asyncio.FIRST_COMPLETED) for thought in thoughts)
        )
        for thought in thoughts:
            if not thought.asked_model:
                thought.due = step

    def due(self, step: int) -> list[str]:
        """The thinking agents whose thoughts take effect at this step."""
        return [name for name, thought in self._by_name.items() if thought.due <= step]

    def defer_talk_end(self, name: str, summary: ConversationSummary, now: datetime) -> bool:
        """Keep a talk's ending for a thinking agent until its thought is applied; False if it is not thinking."""
        thought = self._by_name.get(name)
        if thought is not None:
            thought.talks_ended.append((summary, now))
        return thought is not None

    async def answer(self, names: Iterable[str]) -> dict[str, Thought]:
        """Wait for these agents' thoughts and take them out, decided (with the talk endings that waited for them).

        They are taken out first: if one fails (a spent budget, a model that stays down), every thought in flight
        is cancelled and dropped with the step, as lock-step drops a failed round, and none is awaited twice.
        """
        taken = {name: self._by_name.pop(name) for name in names}
        await self._all_or_none([thought.task for thought in taken.values()])
        return taken

    async def finish(self) -> None:
        """Wait until every thought in flight has its decision, applying none (before a checkpoint)."""
        await self._all_or_none([thought.task for thought in self._by_name.values()])

    async def _all_or_none(self, tasks: list[asyncio.Future]) -> list[Decision]:
        try:
            return await together(*tasks)
        except BaseException:
            self.cancel()  # the other thoughts in flight go with the failed step
            raise

    def cancel(self) -> list[asyncio.Future]:
        """Drop every thought in flight; returns their tasks (cancelled, done once the loop runs again)."""
        tasks = [thought.task for thought in self._by_name.values()]
        for task in tasks:
            task.cancel()
        self._by_name.clear()
        return tasks

    async def drop(self) -> None:
        """Drop every thought in flight and wait until their tasks are done."""
        await asyncio.gather(*self.cancel(), return_exceptions=True)

    # --- checkpoints --------------------------------------------------------------------------------------------

    def get_state(self) -> list[dict]:
        """The thoughts in flight as plain data, their decisions included (after `finish`).

        Raises:
            RuntimeError: If a thought is still under way.
        """
        if any(not thought.task.done() for thought in self._by_name.values()):
            raise RuntimeError("a checkpoint of thoughts in flight needs them finished first (Thoughts.finish)")
        return [
            {
                "agent": name,
                "due": thought.due,
                "shown": thought.shown.get_state(),
                "decision": thought.decision.get_state(),
                "talks_ended": [[summary_state(summary), now.isoformat()] for summary, now in thought.talks_ended],
            }
            for name, thought in self._by_name.items()
        ]

    def set_state(self, state: list[dict]) -> None:
        """Restore `get_state`'s thoughts: decided already, applied at their own steps."""
        self.cancel()
        for record in state:
            decided = self._loop.create_future()
            decided.set_result(Decision.from_state(record["decision"]))
            self._by_name[record["agent"]] = Thought(
                decided,
                AgentStatus.from_state(record["shown"]),
                record["due"],
                [(summary_from_state(summary), datetime.fromisoformat(now)) for summary, now in record["talks_ended"]],
            )
