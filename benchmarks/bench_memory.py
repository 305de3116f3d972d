"""Memory benchmarks: retrieval of the top 30 of 10,000 nodes (384-d; target < 1 ms), adding 10,000 nodes (target
< 1 s), MiniLM embedding throughput at batch 1 and 32 (sentences/s), bytes per node in memory and on disk.

Run: .venv/bin/python benchmarks/bench_memory.py
Timings on a shared machine vary with its load, printed first; compare medians and best-of runs, not single calls.
LangChain's TimeWeightedVectorStoreRetriever comparison runs only when langchain is importable (an optional extra).
"""

import os
import statistics
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from memory import MemoryStore, MemoryStream, MiniLMEmbedder, NodeKind

T0 = datetime(2023, 2, 13)
NODES, DIM, K, QUERIES = 10_000, 384, 30, 500
KINDS = list(NodeKind)


def timed(calls) -> list[float]:
    """Milliseconds per call."""
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"median {statistics.median(ordered):.3f} ms, best {ordered[0]:.3f}, p90 {ordered[int(0.9 * len(ordered))]:.3f}"
    )


def build(vectors: np.ndarray) -> MemoryStream:
    stream = MemoryStream(dim=DIM)
    for i, vector in enumerate(vectors):
        stream.add(
            KINDS[i % 4],
            f"Isabella Rodriguez is doing thing number {i} at Hobbs Cafe",
            created=T0 + timedelta(minutes=i),
            importance=1 + i % 10,
            embedding=vector,
            subject="Isabella Rodriguez",
            predicate="is",
            object=f"thing {i}",
            keywords=("Isabella Rodriguez", "Hobbs Cafe"),
        )
    return stream


def bench_stream(rng: np.random.Generator) -> None:
    vectors = rng.normal(size=(NODES, DIM)).astype(np.float32)
    adds = [timed([lambda: build(vectors)])[0] for _ in range(3)]
    print(f"add {NODES:,} nodes: best {min(adds):.0f} ms of 3 (target < 1000 ms)")
    tracemalloc.start()
    stream = build(vectors)
    python_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    now = T0 + timedelta(days=8)
    queries = rng.normal(size=(QUERIES, DIM)).astype(np.float32)
    for query in queries[:20]:  # warm caches
        stream.retrieve(query, now=now, k=K)
    one = timed(lambda q=q: stream.retrieve(q, now=now, k=K) for q in queries)
    print(f"top-{K} of {NODES:,} ({DIM}-d), 1 focal point: {summary(one)} (target < 1 ms)")
    three = timed(lambda i=i: stream.retrieve_many(queries[i : i + 3], now=now, k=K) for i in range(0, QUERIES, 3))
    print(f"top-{K} of {NODES:,}, 3 focal points at once: {summary(three)}")
    events = timed(lambda q=q: stream.retrieve(q, now=now, k=K, kinds=[NodeKind.EVENT]) for q in queries[:200])
    print(f"top-{K} of the {NODES // 4:,} events among {NODES:,}: {summary(events)}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.sqlite"
        with MemoryStore(path, "bench", DIM) as store:
            saved = timed([lambda: store.save("Isabella Rodriguez", stream)])[0]
            stream.retrieve(queries[0], now=now + timedelta(hours=1), k=K)
            stream.add("event", "one more", created=now, importance=5, embedding=queries[1])
            again = timed([lambda: store.save("Isabella Rodriguez", stream)])[0]
            loaded = timed([lambda: store.load("Isabella Rodriguez")])[0]
        disk = sum(p.stat().st_size for p in Path(folder).iterdir())
    print(
        f"store: first save of {NODES:,} nodes {saved:.0f} ms, next save (1 node, {K} access times) {again:.1f} ms, "
        f"load {loaded:.0f} ms"
    )
    columns = sum(getattr(stream, name).nbytes for name in ("_created", "_accessed", "_importance", "_kind"))
    per_row = (columns + stream._embeddings.nbytes) / len(stream._created)
    print(
        f"bytes per node: {per_row:.0f} in numpy columns ({DIM} float32 + times, importance, kind), "
        f"{python_bytes / NODES:.0f} all in (with node records, keywords, spare column capacity), "
        f"{disk / len(stream):.0f} in SQLite"
    )


def bench_embeddings() -> None:
    embedder = MiniLMEmbedder()
    load = timed([lambda: embedder.embed(["warm up"])])[0]
    sentences = [f"Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe number {i}" for i in range(352)]
    single = timed(lambda s=s: embedder.embed([s]) for s in sentences[:96])
    batched = timed(lambda i=i: embedder.embed(sentences[i : i + 32]) for i in range(96, 352, 32))
    print(
        f"minilm (numpy, no torch): load {load:.0f} ms; batch 1: {1000 / statistics.median(single):.0f} sentences/s; "
        f"batch 32: {32_000 / statistics.median(batched):.0f} sentences/s"
    )


def bench_langchain() -> None:
    try:
        import langchain  # noqa: F401
    except ImportError:
        print("LangChain TimeWeightedVectorStoreRetriever comparison: skipped (langchain is not installed)")
        return
    print("LangChain TimeWeightedVectorStoreRetriever comparison: langchain is installed but not wired in yet")


def main() -> None:
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    bench_stream(np.random.default_rng(0))
    bench_embeddings()
    bench_langchain()


if __name__ == "__main__":
    main()
