"""The evaluation's model calls, phase by phase, each item written to its journal as soon as it is answered.

Phases: every agent answers every battery question under every condition; the judge ranks each question's answers
(shown shuffled, labels hidden, every condition's answer under its own label, `repeats` times in other orders);
then the measure phase (measure_phase.py). Items already in a journal are never asked again.
"""

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from agents.cognition import answer_from
from agents.language import RankRequest
from memory import MemoryNode, MemoryStream
from smallville.evaluation.battery import Battery, Question
from smallville.evaluation.conditions import EVERYTHING, Condition, visible_stream
from smallville.evaluation.journal import Journal
from smallville.evaluation.placeholders import placeholders


@dataclass
class Session:
    """What every phase reads: the restored town, the time, the choices, the journals, and a progress count."""

    model: object
    at: datetime
    names: list[str]
    conditions: list[Condition]
    battery: Battery
    repeats: int
    answers: Journal
    judgements: Journal
    checks: Journal
    progress: Callable[[int, int, object], None] | None = None
    total: int = 0
    done: int = 0
    _streams: dict[tuple[str, str], MemoryStream] = field(default_factory=dict)
    _questions: dict[str, list[tuple[Question, str]]] = field(default_factory=dict)
    # Requests already asked (or being asked), so that one asked again is answered once: two conditions that show
    # an agent the same memories ask the very same interview.
    _asked: dict[object, asyncio.Future] = field(default_factory=dict)
    reused: int = 0

    def stream(self, name: str, condition: Condition) -> MemoryStream:
        """The agent's memory as the condition shows it at `at` (built once per agent and condition)."""
        key = (name, condition.name)
        if key not in self._streams:
            memory = self.model.by_name[name].memories.stream
            self._streams[key] = visible_stream(memory, condition, until=self.at)
        return self._streams[key]

    def nodes(self, name: str) -> list[MemoryNode]:
        """All the agent's memories up to `at` (what grounds a claim)."""
        return list(self.stream(name, EVERYTHING))

    def tick(self) -> None:
        """Count one finished item and report progress."""
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, self.model.gateway.ledger.totals())


def questions_for(session: Session, name: str) -> list[tuple[Question, str]]:
    """The battery's questions filled in for one agent (once per agent)."""
    if name not in session._questions:
        values = placeholders(name, session.nodes(name), list(session.model.by_name))
        session._questions[name] = [(question, question.fill(values)) for question in session.battery.items()]
    return session._questions[name]


async def _ask(session: Session, request, name: str):
    """The gateway's answer; a request identical to one already asked (same fields, same agent) is not asked again."""
    key = (request, name)
    if key in session._asked:
        session.reused += 1
        return await asyncio.shield(session._asked[key])
    task = asyncio.ensure_future(session.model.gateway.ask(request, agent=name))
    session._asked[key] = task
    return await task


async def _answer(session: Session, name: str, condition: Condition, question: str, **between) -> str:
    """The agent's answer from the memories the condition shows (made `since`/`until`, when given)."""
    agent = session.model.by_name[name]
    weights = condition.weights or session.model.config.retrieval_weights
    ask = partial(_ask, session, name=name)
    stream = session.stream(name, condition)
    k = session.model.config.interview_memories
    embedder = agent.memories.embedder
    return await answer_from(ask, agent.identity, stream, embedder, question, session.at, weights, k, **between)


async def _run(session: Session, journal: Journal, items: list[tuple[str, Callable]]) -> None:
    """Answer every item not yet in the journal, concurrently under the gateway's cap; write each when done."""
    session.done += sum(1 for key, _ in items if key in journal)

    async def one(key: str, make: Callable) -> None:
        record = await make()
        journal.add({"key": key, **record})
        session.tick()

    await asyncio.gather(*(one(key, make) for key, make in items if key not in journal))


async def _interview(session: Session, name: str, condition: Condition, question: Question, text: str) -> dict:
    answer = await _answer(session, name, condition, text)
    return {"agent": name, "condition": condition.name, "question_id": question.id,
            "category": question.category, "question": text, "answer": answer}  # fmt: skip


async def answer_phase(session: Session) -> None:
    """Every agent, every question, every condition."""
    items = [
        (f"{name}|{question.id}|{condition.name}", partial(_interview, session, name, condition, question, text))
        for name in session.names
        for question, text in questions_for(session, name)
        for condition in session.conditions
    ]
    await _run(session, session.answers, items)


def shown_order(conditions: list[str], name: str, question_id: str, repeat: int, seed: int) -> list[str]:
    """The conditions whose answers are shown, in a shuffled order; repeats rotate it, so each moves through the places.

    Every condition's answer is shown under its own label, identical ones too: a judge must tie identical answers
    itself (a check that can fail: merged before the judge, two identical conditions would tie by construction).
    """
    order = sorted(conditions)
    random.Random(f"{seed}|{name}|{question_id}").shuffle(order)
    shift = repeat % len(order)
    return order[shift:] + order[:shift]


def answer_length(answer: str) -> int:
    """An answer's length in words (what a judge biased by length would reward)."""
    return len(answer.split())


async def _rank(session: Session, name: str, question_id: str, text: str, shown: list[str], answers: dict) -> dict:
    """One ranking of every condition's answer, in the shown order; all answers identical is a draw, asked of nobody."""
    texts = [answers[condition] for condition in shown]
    positions: tuple[tuple[int, ...], ...] = (tuple(range(len(shown))),)
    if len(set(texts)) > 1:
        context = session.model.by_name[name].identity.describe()
        positions = await _ask(session, RankRequest(question=text, context=context, answers=tuple(texts)), name)
    groups = [[shown[index] for index in group] for group in positions]
    return {"agent": name, "question_id": question_id, "shown": shown, "distinct": len(set(texts)),
            "lengths": [answer_length(answer) for answer in texts],
            "positions": [list(group) for group in positions], "groups": groups}  # fmt: skip


async def judge_phase(session: Session) -> None:
    """The judge ranks each question's answers, `repeats` times in different orders."""
    names = [condition.name for condition in session.conditions]
    items = []
    for name in session.names:
        for question, text in questions_for(session, name):
            answers = {c: session.answers.get(f"{name}|{question.id}|{c}")["answer"].strip() for c in names}
            for repeat in range(session.repeats):
                order = shown_order(names, name, question.id, repeat, session.model.seed)
                key = f"{name}|{question.id}|{repeat}|{','.join(names)}"
                items.append((key, partial(_rank, session, name, question.id, text, order, answers)))
    await _run(session, session.judgements, items)
