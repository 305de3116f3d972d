"""The batching embedder: the loop runs on while it encodes, one batch per tick, same order warm or cold, errors out."""

import asyncio
import threading

import numpy as np
import pytest

from memory import BatchingEmbedder, HashingEmbedder, embed_async

# How long a test double waits for the loop to release it before declaring the loop blocked (a hang guard, not a
# timing threshold: a free loop releases it within a few ticks).
HANG_GUARD_S = 10


class RecordingEmbedder:
    """Hashing vectors; records each batch and the thread it ran on; can be held until released, or fail."""

    name = "recording"
    dim = 384

    def __init__(self, *, held: bool = False, error: Exception | None = None):
        self.batches: list[list[str]] = []
        self.threads: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not held:
            self.release.set()
        self.error = error
        self.hashing = HashingEmbedder()

    def embed(self, texts):
        self.batches.append(list(texts))
        self.threads.append(threading.current_thread().name)
        self.started.set()
        if not self.release.wait(HANG_GUARD_S):
            raise TimeoutError("never released: the event loop was blocked while encoding")
        if self.error is not None:
            raise self.error
        return self.hashing.embed(texts)


def test_the_loop_keeps_running_while_the_worker_encodes():
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)
    order = []

    async def agent():
        vectors = await embedder.embed_async(["Isabella is planning a party"])
        order.append("embedded")
        return vectors

    async def other_work():
        while not inner.started.is_set():
            await asyncio.sleep(0.01)
        order.append("ran while encoding")
        inner.release.set()

    async def main():
        return await asyncio.gather(agent(), other_work())

    vectors, _ = asyncio.run(main())
    assert order == ["ran while encoding", "embedded"]
    assert inner.threads[0] != threading.main_thread().name
    np.testing.assert_array_equal(vectors, HashingEmbedder().embed(["Isabella is planning a party"]))


def test_texts_of_several_agents_in_one_tick_are_encoded_in_one_batch_of_distinct_texts():
    inner = RecordingEmbedder()
    embedder = BatchingEmbedder(inner)
    asked = [["a party", "the bed is idle"], ["the bed is idle"], ["Klaus is reading", "a party", "a party"]]

    async def main():
        return await asyncio.gather(*(embedder.embed_async(texts) for texts in asked))

    results = asyncio.run(main())
    assert inner.batches == [["a party", "the bed is idle", "Klaus is reading"]]
    for texts, vectors in zip(asked, results, strict=True):
        np.testing.assert_array_equal(vectors, HashingEmbedder().embed(texts))


def test_a_text_asked_for_while_it_is_being_encoded_is_not_encoded_again():
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)

    async def main():
        first = asyncio.ensure_future(embedder.embed_async(["first"]))
        while not inner.started.is_set():
            await asyncio.sleep(0.01)
        later = asyncio.ensure_future(embedder.embed_async(["second", "first"]))
        for _ in range(3):  # let the late caller's tick be flushed before the first batch ends
            await asyncio.sleep(0)
        inner.release.set()
        return await first, await later

    first, later = asyncio.run(main())
    assert inner.batches == [["first"], ["second"]]
    np.testing.assert_array_equal(later[1], first[0])


def test_a_cached_text_does_not_reach_the_encoder():
    inner = RecordingEmbedder()
    embedder = BatchingEmbedder(inner)
    first = asyncio.run(embedder.embed_async(["the bed is idle"]))
    again = asyncio.run(embedder.embed_async(["the bed is idle", "the bed is idle"]))
    np.testing.assert_array_equal(again, np.vstack([first, first]))
    assert len(inner.batches) == 1 and embedder.hits == 2 and embedder.misses == 1


def test_callers_resume_in_the_same_order_whether_the_cache_is_cold_or_warm():
    """What makes a second run in the same process interleave (and so replay) as the first."""
    embedder = BatchingEmbedder(RecordingEmbedder())
    scripts = {"A": [["x"], ["y", "z"], ["x"]], "B": [["y"], ["w"]], "C": [["z"], ["x", "v"], ["u"], ["y"]]}

    async def agent(name, asks, log):
        for texts in asks:
            await embedder.embed_async(texts)
            log.append(name)

    async def day():
        log = []
        await asyncio.gather(*(agent(name, asks, log) for name, asks in scripts.items()))
        return log

    cold = asyncio.run(day())
    assert asyncio.run(day()) == cold == ["A", "B", "C", "A", "B", "C", "A", "C", "C"]


def test_an_encoder_error_reaches_every_caller_of_the_batch_and_nothing_is_cached():
    inner = RecordingEmbedder(error=RuntimeError("encoder broke"))
    embedder = BatchingEmbedder(inner)

    async def main():
        return await asyncio.gather(
            embedder.embed_async(["a"]), embedder.embed_async(["a", "b"]), return_exceptions=True
        )

    outcomes = asyncio.run(main())
    assert [str(outcome) for outcome in outcomes] == ["encoder broke", "encoder broke"]
    inner.error = None
    asyncio.run(embedder.embed_async(["a"]))
    assert inner.batches == [["a", "b"], ["a"]]


def test_one_caller_cancelled_leaves_the_others_their_result():
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)

    async def main():
        quitter = asyncio.ensure_future(embedder.embed_async(["shared"]))
        stayer = asyncio.ensure_future(embedder.embed_async(["shared"]))
        while not inner.started.is_set():
            await asyncio.sleep(0.01)
        quitter.cancel()
        inner.release.set()
        return await stayer, quitter

    vectors, quitter = asyncio.run(main())
    assert quitter.cancelled()
    np.testing.assert_array_equal(vectors, HashingEmbedder().embed(["shared"]))


def test_the_synchronous_embed_shares_the_cache_and_the_worker():
    inner = RecordingEmbedder()
    embedder = BatchingEmbedder(inner)
    vectors = embedder.embed(["a", "b", "a"])
    again = asyncio.run(embedder.embed_async(["b", "a"]))
    np.testing.assert_array_equal(again, vectors[[1, 0]])
    assert inner.batches == [["a", "b"]] and inner.threads[0] != threading.main_thread().name


def test_the_cache_keeps_the_most_recently_used_texts():
    inner = RecordingEmbedder()
    embedder = BatchingEmbedder(inner, max_items=2)
    embedder.embed(["a", "b"])
    embedder.embed(["a"])  # "a" is now the most recent
    embedder.embed(["c"])  # evicts "b"
    embedder.embed(["a", "b"])
    assert inner.batches == [["a", "b"], ["c"], ["b"]]


def test_an_embedder_without_embed_async_is_awaited_through_its_embed():
    vectors = asyncio.run(embed_async(HashingEmbedder(), ["a party"]))
    np.testing.assert_array_equal(vectors, HashingEmbedder().embed(["a party"]))


def test_without_offload_the_encoder_runs_on_the_loop_and_callers_still_resume_as_a_group():
    inner = RecordingEmbedder()
    embedder = BatchingEmbedder(inner, offload=False)

    async def main():
        return await asyncio.gather(embedder.embed_async(["a", "b"]), embedder.embed_async(["b", "c"]))

    _, second = asyncio.run(main())
    assert inner.batches == [["a", "b", "c"]] and inner.threads == [threading.main_thread().name]
    np.testing.assert_array_equal(second, HashingEmbedder().embed(["b", "c"]))
    inner.error = RuntimeError("encoder broke")
    with pytest.raises(RuntimeError, match="encoder broke"):
        asyncio.run(embedder.embed_async(["d"]))


def test_a_text_submitted_again_while_it_is_being_encoded_is_not_encoded_again():
    """A synchronous caller (a memory stored between loop turns) and a later one ask for the same text before its
    first encoding is cached: the worker encodes it once."""
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)
    first = embedder.submit(["a"])
    assert inner.started.wait(HANG_GUARD_S)
    again = embedder.submit(["b", "a"])
    inner.release.set()
    first, again = first.result(HANG_GUARD_S), again.result(HANG_GUARD_S)
    assert inner.batches == [["a"], ["b"]]
    np.testing.assert_array_equal(again[1], first[0])
    assert (embedder.misses, embedder.batches) == (2, 2)


def test_batches_asked_for_while_the_worker_is_busy_are_encoded_together():
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)
    first = embedder.submit(["a"])
    assert inner.started.wait(HANG_GUARD_S)
    second, third = embedder.submit(["b", "c"]), embedder.submit(["c", "d"])
    inner.release.set()
    vectors = [future.result(HANG_GUARD_S) for future in (first, second, third)]
    assert inner.batches == [["a"], ["b", "c", "d"]]
    for texts, answer in zip((["a"], ["b", "c"], ["c", "d"]), vectors, strict=True):
        np.testing.assert_array_equal(answer, HashingEmbedder().embed(texts))
    assert (embedder.misses, embedder.batches) == (4, 2)


class TwoAtOnceEmbedder(RecordingEmbedder):
    """A RecordingEmbedder that can take two batches at once (as a pool of two encoder processes can)."""

    workers = 2


def test_a_batch_asked_for_while_one_encodes_starts_at_once_when_the_encoder_takes_two():
    """The talk's next focal point must not queue behind a step's memories when another encoder process is free."""
    inner = TwoAtOnceEmbedder(held=True)
    embedder = BatchingEmbedder(inner)
    first = embedder.submit(["the memories a step stored", "and another"])
    assert inner.started.wait(HANG_GUARD_S)
    second = embedder.submit(["a focal point"])
    waited = 0.0
    while len(inner.batches) < 2 and waited < HANG_GUARD_S:  # a hang guard, not a timing threshold
        threading.Event().wait(0.01)
        waited += 0.01
    assert inner.batches == [["the memories a step stored", "and another"], ["a focal point"]]
    assert len(set(inner.threads)) == 2 and not first.done()
    inner.release.set()
    np.testing.assert_array_equal(second.result(HANG_GUARD_S), HashingEmbedder().embed(["a focal point"]))
    assert first.result(HANG_GUARD_S).shape == (2, 384)


def test_with_one_encoder_a_batch_asked_for_meanwhile_waits_and_joins_the_queue():
    inner = RecordingEmbedder(held=True)
    embedder = BatchingEmbedder(inner)
    first = embedder.submit(["a"])
    assert inner.started.wait(HANG_GUARD_S)
    second, third = embedder.submit(["b"]), embedder.submit(["c"])
    assert inner.batches == [["a"]]
    inner.release.set()
    for future in (first, second, third):
        future.result(HANG_GUARD_S)
    assert inner.batches == [["a"], ["b", "c"]]
