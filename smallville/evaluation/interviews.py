"""The evaluation's model calls, phase by phase, each item written to its journal as soon as it is answered.

Phases: every agent answers every battery question under every condition; the judge ranks each question's answers
(shown shuffled, labels hidden, every condition's answer under its own label, `repeats` times in other orders);
then the measure phase (measure_phase.py). Items already in a journal are never asked again. What items share is
sent once: an agent is asked a category's questions in one request (each answered from the memories retrieved for
it), and the judge ranks a category's questions in one request (each on its own): agents.language's batches.
"""

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from agents.cognition import Recollection, answer_from, answers_from
from agents.language import RanksRequest
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
    identity = session.model.by_name[name].identity
    ask = partial(_ask, session, name=name)
    return await answer_from(ask, identity, _recollection(session, name, condition, **between), question, session.at)


def _recollection(session: Session, name: str, condition: Condition, **between) -> Recollection:
    """Where the agent's interview memories come from under the condition (made `since`/`until`, when given)."""
    weights = condition.weights or session.model.config.retrieval_weights
    stream = session.stream(name, condition)
    embedder = session.model.by_name[name].memories.embedder
    return Recollection(stream, embedder, weights, session.model.config.interview_memories, **between)


async def _run_batches(session: Session, journal: Journal, batches: list[list[tuple[str, object]]], make) -> None:
    """Answer every item not yet in the journal, batch by batch, concurrently under the gateway's cap.

    `make(items)` gives each item's record, in order; each is written as soon as its batch is answered. Only the items
    not yet in the journal are asked (a resumed evaluation asks what is left of a batch).
    """
    session.done += sum(1 for batch in batches for key, _ in batch if key in journal)

    async def some(batch: list[tuple[str, object]]) -> None:
        for (key, _), record in zip(batch, await make([item for _, item in batch]), strict=True):
            journal.add({"key": key, **record})
            session.tick()

    left = [[(key, item) for key, item in batch if key not in journal] for batch in batches]
    await asyncio.gather(*(some(batch) for batch in left if batch))


def in_batches[T](items: list[T], group) -> list[list[T]]:
    """Items grouped by `group(item)` (in order of first appearance), each group cut to the most a batch holds."""
    groups: dict[object, list[T]] = {}
    for item in items:
        groups.setdefault(group(item), []).append(item)
    return [
        members[start : start + RanksRequest.most_items]
        for members in groups.values()
        for start in range(0, len(members), RanksRequest.most_items)
    ]


async def _answers(session: Session, name: str, condition: Condition, questions: list[str]) -> tuple[str, ...]:
    """The agent's answers to questions asked at once, each from the memories the condition shows that bear on it."""
    identity = session.model.by_name[name].identity
    ask = partial(_ask, session, name=name)
    return await answers_from(ask, identity, _recollection(session, name, condition), questions, session.at)


async def _interviews(session: Session, asked: list[tuple[str, Condition, Question, str]]) -> list[dict]:
    """One agent's questions of one category under one condition, asked at once; each answered from its memories."""
    name, condition = asked[0][0], asked[0][1]
    answers = await _answers(session, name, condition, [text for *_, text in asked])
    return [{"agent": name, "condition": condition.name, "question_id": question.id, "category": question.category,
             "question": text, "answer": answer}
            for (_, _, question, text), answer in zip(asked, answers, strict=True)]  # fmt: skip


async def answer_phase(session: Session) -> None:
    """Every agent, every question, every condition: a category's questions asked of an agent at once."""
    items = [
        (f"{name}|{question.id}|{condition.name}", (name, condition, question, text))
        for name in session.names
        for condition in session.conditions
        for question, text in questions_for(session, name)
    ]
    batches = in_batches(items, lambda item: (item[1][0], item[1][1].name, item[1][2].category))
    await _run_batches(session, session.answers, batches, partial(_interviews, session))


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


async def _ranks(session: Session, asked: list[tuple[str, str, str, list[str], dict]]) -> list[dict]:
    """Rankings of one agent's answers to several questions (name, question id, text, shown order, answers), at once.

    Each question is ranked on its own, every condition's answer in the shown order; a question whose answers are all
    identical is a draw, asked of nobody.
    """
    name = asked[0][0]
    texts = [[answers[condition] for condition in shown] for _, _, _, shown, answers in asked]
    judged = [index for index, shown in enumerate(texts) if len(set(shown)) > 1]
    positions: list[tuple[tuple[int, ...], ...]] = [(tuple(range(len(shown))),) for shown in texts]
    if judged:
        context = session.model.by_name[name].identity.describe()
        request = RanksRequest(context, tuple((asked[index][2], tuple(texts[index])) for index in judged))
        for index, ranking in zip(judged, await _ask(session, request, name), strict=True):
            positions[index] = ranking
    records = []
    for (_, question_id, _, shown, _), shown_texts, ranking in zip(asked, texts, positions, strict=True):
        groups = [[shown[index] for index in group] for group in ranking]
        records.append({"agent": name, "question_id": question_id, "shown": shown, "distinct": len(set(shown_texts)),
                        "lengths": [answer_length(answer) for answer in shown_texts],
                        "positions": [list(group) for group in ranking], "groups": groups})  # fmt: skip
    return records


async def judge_phase(session: Session) -> None:
    """The judge ranks each question's answers, `repeats` times in different orders; a category's questions at once."""
    names = [condition.name for condition in session.conditions]
    items = []
    for name in session.names:
        for repeat in range(session.repeats):
            for question, text in questions_for(session, name):
                answers = {c: session.answers.get(f"{name}|{question.id}|{c}")["answer"].strip() for c in names}
                order = shown_order(names, name, question.id, repeat, session.model.seed)
                key = f"{name}|{question.id}|{repeat}|{','.join(names)}"
                items.append((key, (name, question.id, text, order, answers, question.category, repeat)))
    batches = in_batches(items, lambda item: (item[1][0], item[1][6], item[1][5]))
    await _run_batches(session, session.judgements, batches, lambda asked: _ranks(session, [a[:5] for a in asked]))
