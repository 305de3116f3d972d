"""Interviews (the paper's section 6): an agent answers a question in character from what it remembers.

The answer is retrieved-memory-grounded and is not stored in the agent's memory unless the caller asks, so an
evaluation does not change the agent it evaluates; `answer_from` goes further and leaves even the memories'
last-access times alone, for interviews of one stream under several conditions.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.requests import InterviewRequest
from agents.language.requests.batches import InterviewsRequest
from memory import Embedder, MemoryStream, NodeKind, RetrievalWeights, embed_async


async def interview(
    ask: Ask,
    identity: Identity,
    memory: AgentMemory,
    question: str,
    now: datetime,
    config: MindConfig,
    *,
    remember: bool = False,
    asker: str = "",
) -> str:
    """Answer a question in character; with `remember`, keep the exchange as a chat memory (importance 5).

    `asker` is whom the agent believes it faces (the paper's user persona, "a news reporter"); the memory then
    says it talked with that person.
    """
    (retrieved,) = await memory.retrieve(
        [question], now=now, k=config.interview_memories, weights=config.retrieval_weights
    )
    memories = tuple(dict.fromkeys(item.node.description for item in retrieved))  # each memory once (issue 43)
    memories = memories or (f"{identity.name} remembers nothing yet.",)
    answer = await ask(InterviewRequest(identity=identity, now=now, question=question, memories=memories, asker=asker))
    if remember:
        who = asker.strip() or "interviewer"
        await memory.add(
            NodeKind.CHAT,
            f"{asker.strip() or 'an interviewer'} asked {identity.name}: {question}",
            created=now,
            importance=5,
            subject=who,
            predicate="asked",
            object=identity.name,
            keywords=("interview",),
            partner=who,
            lines=((who, question), (identity.name, answer)),
        )
    return answer


@dataclass(frozen=True)
class Recollection:
    """Where an evaluation's interview takes its memories from: a stream read without touching it.

    `k` is how many memories to retrieve per question (MindConfig.interview_memories: the original's 50); `since` and
    `until` keep to the memories made between them (what the agent remembers of one evening).
    """

    stream: MemoryStream
    embedder: Embedder
    weights: RetrievalWeights
    k: int
    since: datetime | None = None
    until: datetime | None = None

    async def recall(self, questions: Sequence[str], now: datetime) -> list[tuple[str, ...]]:
        """The memories retrieved for each question (each wording once), touching nothing in the stream."""
        if not len(self.stream):
            return [() for _ in questions]
        vectors = await embed_async(self.embedder, list(questions))
        options = {"k": self.k, "weights": self.weights, "since": self.since, "until": self.until, "touch": False}
        found = self.stream.retrieve_many(vectors, now=now, **options)
        return [tuple(dict.fromkeys(item.node.description for item in retrieved)) for retrieved in found]


async def answer_from(ask: Ask, identity: Identity, recollection: Recollection, question: str, now: datetime) -> str:
    """Answer in character from a given stream (e.g. one with some memories hidden), touching nothing in it."""
    (memories,) = await recollection.recall([question], now)
    return await ask(InterviewRequest(identity=identity, now=now, question=question, memories=memories))


async def answers_from(
    ask: Ask, identity: Identity, recollection: Recollection, questions: Sequence[str], now: datetime
) -> tuple[str, ...]:
    """Several questions answered as `answer_from` answers each, asked in one request (persona and memories sent once).

    Each question is still answered from the memories retrieved for it, listed by their numbers beside it.
    """
    recalled = await recollection.recall(questions, now)
    return await ask(InterviewsRequest.of(identity, now, list(zip(questions, recalled, strict=True))))
