"""An agent's memory and its vectors: storing never waits for the encoder, retrieval fills in what is missing, and
agents storing and retrieving in the same tick share one encoder batch."""

import asyncio
import threading
from datetime import datetime

import numpy as np

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
        for memory in (isabella, klaus, maria):  # storing asks for the vectors; nothing waits for them until now
            await memory.vectors_arrived()

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


class HeldEmbedder(HashingEmbedder):
    """Hashing vectors, each batch held until the test lets it go."""

    def __init__(self):
        super().__init__()
        self.go = threading.Event()

    def embed(self, texts):
        assert self.go.wait(timeout=30), "the test never let the encoder go"
        return super().embed(texts)


def test_storing_goes_on_while_the_encoder_works_and_retrieval_waits_for_the_vectors():
    held = HeldEmbedder()
    (memory,) = memories(BatchingEmbedder(held), 1)

    async def think():
        await memory.add(NodeKind.THOUGHT, "a party at Hobbs Cafe", created=T0, importance=8)
        await memory.store([PendingMemory(NodeKind.EVENT, "the stove is on", created=T0)], [2])
        stored = len(memory.stream)  # both stored while the encoder still holds their batch
        asyncio.get_running_loop().call_later(0.05, held.go.set)
        return stored, await memory.recall(["party"], now=T0, k=1, weights=ONLY_RELEVANCE)

    stored, recalled = asyncio.run(think())
    assert stored == 2 and recalled == ["a party at Hobbs Cafe"]
    assert not memory.awaiting_vectors
    reference = HashingEmbedder().embed(["a party at Hobbs Cafe", "the stove is on"])
    assert np.allclose([memory.stream.embedding(0), memory.stream.embedding(1)], reference)


def test_a_memory_stored_between_turns_of_the_loop_gets_its_vector_from_the_worker():
    held = HeldEmbedder()
    (memory,) = memories(BatchingEmbedder(held), 1)
    memory.add_now(NodeKind.CHAT, "a talk with Klaus about his paper", created=T0, importance=4)
    assert memory.awaiting_vectors  # returned while the worker holds the text
    held.go.set()
    memory.vectors_now()
    expected = HashingEmbedder().embed(["a talk with Klaus about his paper"])[0]
    assert np.allclose(memory.stream.get_state()["embeddings"][0], expected)
