"""Embedding off the event loop: the texts all coroutines ask for in one loop tick, encoded as one batch in a worker.

The encoder is CPU-bound (MiniLM: several ms a sentence, far more under load); run on the event loop it holds up
every model reply that arrives meanwhile. Here each loop tick's requests, from all agents' coroutines, form one
group: its texts not cached and not already being encoded go to one worker thread as one batch of distinct texts,
and the group's callers resume together, in the order they asked, once the vectors they need are there.

Replays: a caller waits for its tick's group even when every text is cached, so whether the cache is cold or warm (a
second run in the same process) the coroutines suspend and resume at the same points and in the same order; in the
offline model, where nothing else suspends, runs interleave identically. Vectors do not depend on batch-mates either:
MiniLMEmbedder places each sentence on its BLAS row tiles, and the hashing embedder works text by text (an embedder
that batches, such as a model API, may move a vector by float rounding with its batch-mates). So the worker may also
join the batches that queued while it was busy into one encoder call, which a packing encoder pays less for.

Threads: only the thread running a loop touches that loop's groups and futures; the worker encodes (and caches what
a synchronous caller asked for); the cache is touched under a lock held for dictionary operations only, never while
encoding, so a synchronous caller on another thread (the Solara app, the mesa-llm adapter) is safe too.
"""

import asyncio
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from memory.embeddings import Embedder
    from memory.vector_cache import VectorCache


@dataclass
class _Group:
    """One loop tick's requests: each caller's texts and future, the vectors known, the batches still awaited."""

    requests: list[tuple[list[str], asyncio.Future]] = field(default_factory=list)
    known: dict[str, np.ndarray] = field(default_factory=dict)
    awaited: int = 0
    error: BaseException | None = None


@dataclass
class _LoopState:
    """One event loop's group being gathered, and the texts being encoded (each with its batch's future)."""

    gathering: _Group | None = None
    in_flight: dict[str, asyncio.Future] = field(default_factory=dict)


class BatchingEmbedder:
    """A text-cached embedder whose `embed_async` serves each loop tick's callers from one worker-thread batch.

    Args:
        inner: The embedder that computes vectors for texts not seen before; called from the worker thread only.
        max_items: Texts kept in the cache; the least recently used go first.
        offload: Encode in the worker thread; False encodes on the loop at the tick's end, for an encoder that takes
            microseconds (hashing), where a thread hand-off per tick costs more than it saves.
        disk: Vectors kept on disk by earlier runs (memory/vector_cache.py): read before encoding, and every new
            vector written to it.

    Attributes:
        hits: Texts asked for that were not new to their call's batch (cached, or repeated in the call).
        misses: Texts sent to the inner embedder.
        batches: Calls of the inner embedder.
        disk_hits: Texts whose vector came from the disk cache.
    """

    def __init__(
        self, inner: "Embedder", max_items: int = 100_000, *, offload: bool = True, disk: "VectorCache | None" = None
    ):
        if max_items < 1:
            raise ValueError(f"max_items must be at least 1, got {max_items}")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_items = max_items
        self.offload = offload
        self.hits = 0
        self.misses = 0
        self.batches = 0
        self.disk_hits = 0
        self.disk = disk
        # What names this encoder's vectors on disk: its name and length (an encoder may name its weights instead).
        self.disk_key = getattr(inner, "cache_key", f"{inner.name}/{inner.dim}")
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        # One thread per batch the encoder can take at once: its `workers` (ProcessPoolEmbedder's processes), else one,
        # since an encoder that loads lazily is not known to be re-entrant.
        self._workers = max(1, getattr(inner, "workers", 1))
        self._worker = ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix=f"embed-{inner.name}")
        # Batches waiting for a worker (each with its caller's future), and how many workers are draining them.
        self._queue: list[tuple[list[str], Future]] = []
        self._draining = 0
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = weakref.WeakKeyDictionary()

    # --- synchronous: for callers outside a coroutine --------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for the texts, the uncached ones encoded in one batch on the worker thread while this one waits.

        Blocks its caller; a coroutine should await `embed_async` instead.
        """
        return self.submit(texts).result()

    def submit(self, texts: Sequence[str]) -> Future:
        """The texts' vectors as a future that the worker fulfils, for synchronous code that need not wait now.

        Without `offload` (an encoder that takes microseconds) they are encoded here, and the future is done.
        """
        texts = list(texts)
        known = self._lookup(texts)
        missing = self._misses(texts, known)
        answer: Future = Future()
        if not missing or not self.offload:
            fresh = self._encode(missing)
            answer.set_result(self._stack(texts, {**known, **fresh}))
            return answer

        def arrived(encoded: Future) -> None:
            if encoded.exception() is not None:
                answer.set_exception(encoded.exception())
            else:
                answer.set_result(self._stack(texts, {**known, **encoded.result()}))

        self._encode_soon(missing).add_done_callback(arrived)
        return answer

    # --- asynchronous: the event loop keeps running while the worker encodes ---------------------------------------

    async def embed_async(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for the texts, once this tick's group is served; the loop runs other coroutines meanwhile.

        Raises:
            Exception: Whatever the inner embedder raised for a batch these texts were in (nothing is cached then).
        """
        return await self.request(texts)

    def request(self, texts: Sequence[str]) -> asyncio.Future:
        """`embed_async` without the wait: the texts join this tick's group now, and the future has their vectors.

        For a caller that stores a text now and needs its vector only later (memory/stream.py `fill`).
        """
        texts = list(texts)
        loop = asyncio.get_running_loop()
        with self._lock:  # two loops may run in two threads (a Solara page and a batch run)
            state = self._loops.setdefault(loop, _LoopState())
        if state.gathering is None:
            state.gathering = _Group()
            # After the coroutines already runnable in this tick have had their turn (and asked for their texts).
            loop.call_soon(self._flush, loop, state)
        future = loop.create_future()
        state.gathering.requests.append((texts, future))
        return future

    def _flush(self, loop: asyncio.AbstractEventLoop, state: _LoopState) -> None:
        group, state.gathering = state.gathering, None
        asked = [text for texts, _ in group.requests for text in texts]
        group.known = self._lookup(asked)
        unknown = self._misses(asked, group.known)
        batches = {state.in_flight[text] for text in unknown if text in state.in_flight}
        missing = [text for text in unknown if text not in state.in_flight]
        if missing:
            batch = self._start(loop, missing)
            batch.add_done_callback(lambda done: self._encoded(state, done))
            state.in_flight.update(dict.fromkeys(missing, batch))
            batches.add(batch)
        group.awaited = len(batches)
        for batch in batches:  # each registered after _encoded, so the cache is filled before the group reads it
            batch.add_done_callback(lambda done: self._arrived(group, done))
        if not batches:
            self._serve(group)

    def _start(self, loop: asyncio.AbstractEventLoop, texts: list[str]) -> asyncio.Future:
        if self.offload:
            return asyncio.wrap_future(self._encode_soon(texts), loop=loop)
        batch = loop.create_future()
        try:
            batch.set_result(self._encode(texts))
        except Exception as error:  # delivered to the callers as a worker's error would be
            batch.set_exception(error)
        return batch

    def _encoded(self, state: _LoopState, batch: asyncio.Future) -> None:
        texts = [text for text, future in state.in_flight.items() if future is batch]
        for text in texts:
            del state.in_flight[text]

    def _arrived(self, group: _Group, batch: asyncio.Future) -> None:
        if batch.cancelled():
            group.error = asyncio.CancelledError()
        elif batch.exception() is not None:
            group.error = batch.exception()
        else:
            group.known.update(batch.result())
        group.awaited -= 1
        if group.awaited == 0:
            self._serve(group)

    def _serve(self, group: _Group) -> None:
        """Resume the group's callers in the order they asked (a cancelled caller is skipped)."""
        for texts, future in group.requests:
            if future.done():
                continue
            if group.error is not None and any(text not in group.known for text in texts):
                future.set_exception(group.error)
            else:
                future.set_result(self._stack(texts, group.known))

    # --- the worker's job and the cache ---------------------------------------------------------------------------

    def _encode_soon(self, texts: list[str]) -> Future:
        """The texts' vectors (a dict), from the worker; the batches asked for while it is busy are encoded together.

        An encoder that packs sentences (MiniLM) pays much less per sentence in one call than in several, and its
        vectors do not depend on batch-mates, so joining queued batches changes nothing but the time.
        """
        job: Future = Future()
        with self._lock:
            self._queue.append((texts, job))
            idle = self._draining < self._workers
            self._draining += idle
        if idle:
            self._worker.submit(self._drain)
        return job

    def _drain(self) -> None:
        """Runs on the worker thread: encodes everything queued, as one batch, until nothing is."""
        while True:
            with self._lock:
                jobs, self._queue = self._queue, []
                if not jobs:
                    self._draining -= 1
                    return
            jobs = [(texts, job) for texts, job in jobs if job.set_running_or_notify_cancel()]
            asked = list(dict.fromkeys(text for texts, _ in jobs for text in texts))
            with self._lock:  # encoded since they were queued: asked for again before the first encoding was cached
                done = self._cached(asked)
            try:
                fresh = self._encode([text for text in asked if text not in done])
            except Exception as error:  # each waiting caller gets it
                for _, job in jobs:
                    job.set_exception(error)
                continue
            fresh.update(done)
            for texts, job in jobs:
                job.set_result({text: fresh[text] for text in texts})

    def _encode(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Encode texts and cache their vectors (on the worker thread, or inline without offload)."""
        if not texts:
            return {}
        vectors = np.asarray(self.inner.embed(texts), dtype=np.float32)
        if vectors.shape != (len(texts), self.dim):
            raise ValueError(f"embedder {self.name!r} gave shape {vectors.shape} for {len(texts)} texts")
        with self._lock:
            self.batches += 1
            self.misses += len(texts)
        fresh = dict(zip(texts, vectors, strict=True))
        self._store(fresh)
        return fresh

    def _lookup(self, texts: list[str]) -> dict[str, np.ndarray]:
        with self._lock:
            known = self._cached(texts)
            if self.disk is not None and len(known) < len(texts):
                kept = self.disk.get_many(self.disk_key, self.dim, (text for text in texts if text not in known))
                self.disk_hits += len(kept)
                self._remember(kept)
                known.update(kept)
            return known

    def _cached(self, texts: list[str]) -> dict[str, np.ndarray]:
        """The texts' vectors in the in-memory cache, marked as recently used (the caller holds the lock)."""
        known = {}
        for text in texts:
            vector = self._cache.get(text)
            if vector is not None:
                self._cache.move_to_end(text)
                known[text] = vector
        return known

    def _misses(self, texts: list[str], known: dict[str, np.ndarray]) -> list[str]:
        missing = [text for text in dict.fromkeys(texts) if text not in known]
        with self._lock:
            self.hits += len(texts) - len(missing)
        return missing

    def _store(self, fresh: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._remember(fresh)
            if self.disk is not None:
                self.disk.put_many(self.disk_key, fresh)

    def _remember(self, vectors: dict[str, np.ndarray]) -> None:
        """Into the in-memory cache (the caller holds the lock)."""
        self._cache.update(vectors)
        while len(self._cache) > self.max_items:
            self._cache.popitem(last=False)

    def _stack(self, texts: list[str], known: dict[str, np.ndarray]) -> np.ndarray:
        result = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            result[row] = known[text]
        return result


async def embed_async(embedder: "Embedder", texts: Sequence[str]) -> np.ndarray:
    """Await an embedder's vectors: off the loop if it can (`embed_async`), else by its synchronous `embed`."""
    embed_soon = getattr(embedder, "embed_async", None)
    if embed_soon is not None:
        return await embed_soon(texts)
    return embedder.embed(texts)
