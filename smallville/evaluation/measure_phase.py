"""The measure phase: each agent asked about each fact and each other agent, each answer checked and grounded.

A fact check (the judge) reads the answer; a "yes" is then shown to the judge again with the memories the agent
holds that bear on it, retrieved by relevance alone to the question, the answer and the claim in turn (and its status
at the start, which may hold a seeded fact): the ids of those that support it are recorded, and none makes the "yes"
a hallucination. For a fact, the earliest supporting memory says how the agent learned it, after the judge is shown
the first-hand memories from before the earliest it found (a talk the day before may be less relevant than the
gathering seen). Agents present at the gathering's place whose actions do not name it are asked why they were there.
An agent's questions are asked five at a time (its facts together, others five people at a time) and their answers
fact-checked together: each answered from the memories retrieved for it, each checked on its own.
"""

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from agents.language import FactChecksRequest, GroundRequest
from memory import MemoryStream, RetrievalWeights, embed_async
from smallville.evaluation.attendance import Window
from smallville.evaluation.conditions import EVERYTHING
from smallville.evaluation.interviews import Session, _answer, _answers, _ask, _run_batches, in_batches
from smallville.evaluation.measures import HOW, INTERVIEW_PARTNER, STATUS_ID, origin, relationship_claim
from smallville.evaluation.topics import fact_topic, fill_topic

# Memories shown to the grounding judge: those most relevant to the question (the original's interviews retrieved
# 50 to answer; a judge reads a dozen reliably, and relevance ranks the ones that bear on a fact first).
GROUNDING_MEMORIES = 12
# Relevance alone: what bears on the question, however old or unimportant (recency would hide the first telling).
BY_RELEVANCE = RetrievalWeights(0.0, 1.0, 0.0)


async def _retrieve(
    session: Session, name: str, texts: list[str], *, until: datetime | None = None, first_hand: bool = False
) -> list:
    """The memories most relevant to any of the texts, taken in turn, each wording once (its first memory).

    Interviews are left out, and derived memories too when `first_hand`.
    """
    stream: MemoryStream = session.stream(name, EVERYTHING)
    if not len(stream):
        return []
    vectors = await embed_async(session.model.by_name[name].memories.embedder, texts)
    start = session.model.start
    options = {"k": len(stream), "weights": BY_RELEVANCE, "until": until, "touch": False}
    rankings = stream.retrieve_many(vectors, now=session.at, **options)
    first: dict[str, object] = {}
    for node in stream:
        first.setdefault(node.description, node)
    kept, seen = [], set()
    for rank in range(max((len(found) for found in rankings), default=0)):
        for found in rankings:
            if rank >= len(found) or len(kept) == GROUNDING_MEMORIES:
                continue
            node = first[found[rank].node.description]
            usable = node.partner != INTERVIEW_PARTNER and (not first_hand or origin(node, start) is not None)
            if usable and node.description not in seen:
                seen.add(node.description)
                kept.append(node)
    return kept


def _status(session: Session, name: str) -> str:
    """The agent's status at the start (its persona's "currently"): a seeded fact may stand there."""
    return session.model.by_name[name].persona.identity.currently


async def _trace(session: Session, name: str, support: list, record: dict) -> dict:
    """How the agent first learned a fact: the origin of the earliest first-hand memory that supports it.

    The memories shown to the judge are the dozen most relevant, and a late one (seeing the party itself) may push out
    the talk that told of it the day before: so the judge is also shown the first-hand memories from before the
    earliest that supports it, and an earlier one it finds supporting is where the agent learned it.
    """
    start = session.model.start
    stream = session.stream(name, EVERYTHING)
    found = []
    derived = []
    for node_id in support:
        if node_id == STATUS_ID:
            found.append((start, HOW.index("seeded"), "seeded", None))
            continue
        node = stream.node(node_id)
        how = origin(node, start)
        if how is None:
            derived.append(node.created)
        else:
            found.append((node.created, HOW.index(how[0]), how[0], how[1]))
    earliest = min([*derived, *(item[0] for item in found)])
    if earliest > start:
        candidates = await _retrieve(session, name, [record["claim"]], until=earliest, first_hand=True)
        candidates = [node for node in candidates if node.created < earliest]
        if candidates:
            request = GroundRequest(record["question"], record["answer"], record["claim"], name,
                                    tuple(node.description for node in candidates))  # fmt: skip
            picked = [candidates[index] for index in await _ask(session, request, name)]
            record["traced"] = [{"id": node.id, "text": node.description} for node in candidates]
            record["traced_support"] = [node.id for node in picked]
            for node in picked:
                how, source = origin(node, start)
                found.append((node.created, HOW.index(how), how, source))
    if not found:
        found.append((min(derived), HOW.index("inferred"), "inferred", None))
    created, _, how, source = min(found, key=lambda item: item[:2])
    return {"how": how, "source": source, "when": created.isoformat()}


@dataclass(frozen=True)
class Asked:
    """One measure's question to an agent, and the claim its answer is checked for."""

    name: str
    kind: str
    subject: str
    question: str
    claim: str
    window: Window | None = None


async def _checks(session: Session, asked: list[Asked]) -> list[dict]:
    """Ask with the full memory, fact-check the answers, and ground each "yes" in the memories shown to the judge.

    One agent's questions are asked at once, each answered from the memories that bear on it, and their answers
    checked at once, each on its own. Asked about a window of time (alone), the agent answers from what it remembers of
    it (memories made from an hour before).
    """
    name, window = asked[0].name, asked[0].window
    if window is not None:
        between = {"since": window.start - timedelta(hours=1), "until": window.end}
        answers: tuple[str, ...] = (await _answer(session, name, EVERYTHING, asked[0].question, **between),)
    else:
        answers = await _answers(session, name, EVERYTHING, [item.question for item in asked])
    pairs = list(zip(asked, answers, strict=True))
    checks = FactChecksRequest(name, tuple((item.question, answer, item.claim) for item, answer in pairs))
    shown = await _ask(session, checks, name)
    return list(
        await asyncio.gather(
            *(_ground(session, item, answer, shows) for (item, answer), shows in zip(pairs, shown, strict=True))
        )
    )


async def _ground(session: Session, asked: Asked, answer: str, shows: bool) -> dict:
    """The measure's record; a "yes" grounded in the memories shown to the judge, and a fact's origin traced."""
    name, question, claim = asked.name, asked.question, asked.claim
    record = {"kind": asked.kind, "subject": asked.subject, "agent": name, "question": question, "answer": answer,
              "claim": claim, "shows": shows, "shown": [], "support": [], "grounded": False}  # fmt: skip
    if not shows or asked.kind == "attendance":
        return record
    nodes = await _retrieve(session, name, [question, answer, claim])
    shown = [(STATUS_ID, _status(session, name)), *((node.id, node.description) for node in nodes)]
    ground = GroundRequest(question, answer, claim, name, tuple(text for _, text in shown))
    support = [shown[index][0] for index in await _ask(session, ground, name)]
    record.update(shown=[{"id": node_id, "text": text} for node_id, text in shown], support=support)
    record["grounded"] = bool(support)
    if support and asked.kind == "fact":
        record["origin"] = await _trace(session, name, support, record)
    return record


def why_there(name: str, place: str, window: Window, gathering: str) -> tuple[str, str]:
    """The question asked of someone present at the place in a window, and the claim that they came for it."""
    where = place.rsplit(":", maxsplit=1)[-1]
    question = f"Why were you at {where} on {window.text()}?"
    return question, f"{name} was at {where} on {window.text()} for the {gathering}"


async def measure_phase(session: Session, present: list[tuple[str, Window]] | None = None) -> None:
    """Each agent about each tracked fact and each other agent; those `present` asked why they were there."""
    measures = session.battery.measures
    items = []
    for name in session.names:
        for fact in session.model.setting.facts:
            topic = fact_topic(fact.description)
            question = measures.fact_questions.get(fact.id) or fill_topic(measures.fact_question, topic)
            items.append((f"fact|{name}|{fact.id}", Asked(name, "fact", fact.id, question, fact.description)))
        for other in session.names:
            if other != name:
                question = measures.relationship_question.format(other=other)
                claim = relationship_claim(name, other)
                items.append((f"relationship|{name}|{other}", Asked(name, "relationship", other, question, claim)))
    gathering = session.model.setting.gathering
    for name, window in present or ():
        question, claim = why_there(name, gathering.place, window, gathering.name)
        items.append(
            (f"attendance|{name}|{window.label}", Asked(name, "attendance", window.label, question, claim, window))
        )
    # An agent's facts asked at once, its relationships at once (a window of time alone: it has memories of its own).
    batches = in_batches(items, lambda item: (item[1].name, item[1].kind, item[1].window))
    await _run_batches(session, session.checks, batches, partial(_checks, session))
