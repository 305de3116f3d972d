"""Embedding off the event loop: every coroutine's misses of one loop tick encoded as one batch in a worker thread.

The encoder is CPU-bound (MiniLM: several ms a sentence, far more under load); run on the event loop it holds up
every model reply that arrives meanwhile. Here the encoding runs in one worker thread, and the texts all agents'
coroutines ask for while a batch is being gathered (the rest of the current loop tick) or encoded go out together as
the next batch of distinct texts. Results are cached by text; only the thread that owns a loop resolves its futures,
and the cache itself is touched under a lock held for dictionary operations only, never while encoding, so a
synchronous caller on another thread (the Solara app, the mesa-llm adapter) is safe too.

Batch composition and floats: which texts share a batch depends on timing (what arrives while the worker is busy).
MiniLMEmbedder encodes each sentence alone, so its vectors do not depend on that, and the hashing embedder works text
by text; an inner embedder that batches (a model API) may move a vector by float rounding with its batch-mates. Each
text is encoded once and then served from the cache.
"""

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from memory.embeddings import Embedder


@dataclass
class _LoopBatches:
    """One event loop's texts waiting for the next batch, and those in the batch being encoded."""

    waiting: dict[str, asyncio.Future] = field(default_factory=dict)
    in_flight: dict[str, asyncio.Future] = field(default_factory=dict)
    flush_scheduled: bool = False


class BatchingEmbedder:
    """A text-cached embedder whose `embed_async` gathers concurrent callers' misses into one worker-thread batch.

    Args:
        inner: The embedder that computes vectors for texts not seen before; called from the worker thread only.
        max_items: Texts kept in the cache; the least recently used go first.

    Attributes:
        hits: Texts asked for that were not new to their call's batch (cached, or repeated in the call).
        misses: Texts sent to the inner embedder.
        batches: Calls of the inner embedder.
    """

    def __init__(self, inner: "Embedder", max_items: int = 100_000):
        if max_items < 1:
            raise ValueError(f"max_items must be at least 1, got {max_items}")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_items = max_items
        self.hits = 0
        self.misses = 0
        self.batches = 0
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        # One thread: the encoder is used by one batch at a time (it loads lazily and is not known to be re-entrant).
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"embed-{inner.name}")
        self._loops: dict[asyncio.AbstractEventLoop, _LoopBatches] = {}

    # --- synchronous: for callers outside a coroutine --------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for the texts, the uncached ones encoded in one batch on the worker thread while this one waits.

        Blocks its caller; a coroutine should await `embed_async` instead.
        """
        texts = list(texts)
        known = self._lookup(texts)
        missing = self._misses(texts, known)
        if missing:
            vectors = self._worker.submit(self._encode, missing).result()
            fresh = dict(zip(missing, vectors, strict=True))
            self._store(fresh)
            known.update(fresh)
        return self._stack(texts, known)

    # --- asynchronous: the event loop keeps running while the worker encodes ---------------------------------------

    async def embed_async(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for the texts: cached ones at once, the others from the next batch, the loop free meanwhile.

        Raises:
            Exception: Whatever the inner embedder raised for the batch these texts were in (nothing is cached then).
        """
        texts = list(texts)
        known = self._lookup(texts)
        missing = self._misses(texts, known)
        if missing:
            futures = [self._future_for(text) for text in missing]
            # Shielded: one caller's cancellation must not cancel a result other callers are waiting for too.
            vectors = await asyncio.gather(*(asyncio.shield(future) for future in futures))
            known.update(zip(missing, vectors, strict=True))
        return self._stack(texts, known)

    def _future_for(self, text: str) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        batches = self._loops.setdefault(loop, _LoopBatches())
        future = batches.in_flight.get(text) or batches.waiting.get(text)
        if future is not None:
            return future
        future = batches.waiting[text] = loop.create_future()
        if not batches.flush_scheduled and not batches.in_flight:
            # After the coroutines already runnable in this tick have had their turn (and added their texts).
            batches.flush_scheduled = True
            loop.call_soon(self._flush, loop)
        return future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        batches = self._loops[loop]
        batches.flush_scheduled = False
        if batches.in_flight or not batches.waiting:
            return
        batches.in_flight, batches.waiting = batches.waiting, {}
        texts = list(batches.in_flight)
        done = loop.run_in_executor(self._worker, self._encode, texts)
        done.add_done_callback(lambda result: self._finish(loop, texts, result))

    def _finish(self, loop: asyncio.AbstractEventLoop, texts: list[str], result: asyncio.Future) -> None:
        batches = self._loops[loop]
        futures, batches.in_flight = batches.in_flight, {}
        error = asyncio.CancelledError() if result.cancelled() else result.exception()
        if error is None:
            fresh = dict(zip(texts, result.result(), strict=True))
            self._store(fresh)
        for text, future in futures.items():
            if future.done():
                continue
            if error is None:
                future.set_result(fresh[text])
            else:
                future.set_exception(error)
        if batches.waiting:
            # Texts asked for while this batch was encoding: the next batch, at once.
            self._flush(loop)
        else:
            del self._loops[loop]

    # --- the worker's job and the cache ---------------------------------------------------------------------------

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Runs on the worker thread: the encoder only, no shared state but a counter."""
        vectors = np.asarray(self.inner.embed(texts), dtype=np.float32)
        if vectors.shape != (len(texts), self.dim):
            raise ValueError(f"embedder {self.name!r} gave shape {vectors.shape} for {len(texts)} texts")
        with self._lock:
            self.batches += 1
            self.misses += len(texts)
        return vectors

    def _lookup(self, texts: list[str]) -> dict[str, np.ndarray]:
        with self._lock:
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
            self._cache.update(fresh)
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
