"""An agent's memory awaits its vectors: agents storing and retrieving in the same tick share one encoder batch."""

import asyncio
from datetime import datetime

from agents import AgentMemory, PendingMemory
from memory import BatchingEmbedder, HashingEmbedder, MemoryStream, NodeKind, RetrievalWeights

T0 = datetime(2023, 2, 13, 9)
ONLY_RELEVANCE = RetrievalWeights(recency=0, relevance=1, importance=0)


class CountingEmbedder(HashingEmbedder):
    """Hashing vectors; records each batch."""

    def __init__(self):
        super().__init__()
        self.batches: list[list[str]] = []

    def embed(self, texts):
        self.batches.append(list(texts))
        return super().embed(texts)


def memories(embedder, count: int) -> list[AgentMemory]:
    return [AgentMemory(MemoryStream(dim=embedder.dim), embedder) for _ in range(count)]


def test_three_agents_adding_settling_and_retrieving_at_once_make_one_batch_each_time():
    inner = CountingEmbedder()
    embedder = BatchingEmbedder(inner)
    isabella, klaus, maria = memories(embedder, 3)
    maria.queue(PendingMemory(NodeKind.EVENT, "the stove is on", created=T0))
    maria.queue(PendingMemory(NodeKind.EVENT, "the bed is idle", created=T0))

    async def store():
        await asyncio.gather(
            isabella.add(NodeKind.THOUGHT, "a party at Hobbs Cafe", created=T0, importance=8),
            klaus.add(NodeKind.THOUGHT, "a paper on gentrification", created=T0, importance=6),
            maria.settle([2, 1]),
        )

    async def recall():
        return await asyncio.gather(
            isabella.recall(["party"], now=T0, k=1, weights=ONLY_RELEVANCE),
            klaus.recall(["paper", "party"], now=T0, k=1, weights=ONLY_RELEVANCE),
        )

    asyncio.run(store())
    recalled = asyncio.run(recall())
    assert inner.batches == [
        ["a party at Hobbs Cafe", "a paper on gentrification", "the stove is on", "the bed is idle"],
        ["party", "paper"],
    ]
    assert [len(isabella.stream), len(klaus.stream), len(maria.stream), len(maria.pending)] == [1, 1, 2, 0]
    assert recalled == [["a party at Hobbs Cafe"], ["a paper on gentrification"]]
