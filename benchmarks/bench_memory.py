"""Memory benchmarks: top-30 of 10,000 nodes (target < 1 ms), adding 10,000 nodes (target < 1 s), embedding
throughput (sentences/s, batch 1 and 32), bytes per node. Run: .venv/bin/python benchmarks/bench_memory.py"""

import statistics
import time
from datetime import datetime, timedelta

import numpy as np

from memory import MemoryStream, MiniLMEmbedder

T0 = datetime(2023, 2, 13)


def main() -> None:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(10_000, 384)).astype(np.float32)
    started = time.perf_counter()
    stream = MemoryStream(dim=384)
    for i in range(10_000):
        stream.add(
            "event", f"memory {i}", created=T0 + timedelta(minutes=i), importance=1 + i % 10, embedding=vectors[i]
        )
    add = time.perf_counter() - started
    queries = rng.normal(size=(200, 384)).astype(np.float32)
    now = T0 + timedelta(days=8)
    times = []
    for query in queries:
        start = time.perf_counter()
        stream.retrieve(query, now=now, k=30)
        times.append(time.perf_counter() - start)
    state = stream.get_state()
    per_node = (state["embeddings"].nbytes + state["accessed"].nbytes + 8 * 3) / len(stream)
    print(f"add 10,000 nodes: {add * 1000:.0f} ms (target < 1000 ms)")
    print(f"top-30 of 10,000 (384-d): median {statistics.median(times) * 1000:.2f} ms (target < 1 ms)")
    print(f"bytes per node in the numeric columns: {per_node:.0f}")
    embedder = MiniLMEmbedder()
    sentences = [f"Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe {i}" for i in range(96)]
    embedder.embed(sentences[:2])
    start = time.perf_counter()
    for sentence in sentences[:48]:
        embedder.embed([sentence])
    single = 48 / (time.perf_counter() - start)
    start = time.perf_counter()
    embedder.embed(sentences)
    batched = len(sentences) / (time.perf_counter() - start)
    print(f"minilm embedding: {single:.0f} sentences/s at batch 1, {batched:.0f} at batch 32")
    print("LangChain TimeWeightedVectorStoreRetriever comparison: not run (LangChain is not installed)")


if __name__ == "__main__":
    main()
