"""Sentence-embedding throughput by batch size: the numpy MiniLM encoder, and onnxruntime when it is installed.

The day embeds a few sentences at a time (one tick's misses across the 25 agents), so batches of 1, 4, 16 and 64 are
timed; each figure is the median of several runs, with the load average beside it (the machine is shared).
onnxruntime is optional and not a project dependency: `uv pip install onnx onnxruntime` to include it; the graph is
built from the numpy encoder's weights (onnx_minilm.py) and its vectors are checked against the numpy ones.

Run: .venv/bin/python benchmarks/bench_embed.py [runs]
"""

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from memory import MiniLMEmbedder

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling onnx_minilm.py, when run as a script

BATCH_SIZES = (1, 4, 16, 64)
SUBJECTS = ("Isabella Rodriguez", "Klaus Mueller", "Maria Lopez", "the refrigerator", "Hobbs Cafe")
ACTIVITIES = (
    "is idle",
    "is planning a Valentine's Day party at Hobbs Cafe on February 14th from 5pm to 7pm",
    "is reading a paper about gentrification in low-income neighbourhoods",
    "is brewing coffee",
    "conversation with Tom Moreno: they talked about the upcoming mayoral election and who might run",
)


def sentences(count: int, run: int) -> list[str]:
    """Distinct sentences of the day's kinds and lengths (short events to long conversation summaries), the runs of
    every batch size together cycling through the same mix."""
    return [
        f"{SUBJECTS[i % len(SUBJECTS)]} {ACTIVITIES[(i // len(SUBJECTS)) % len(ACTIVITIES)]} ({run}-{i})"
        for i in range(run * count, (run + 1) * count)
    ]


def throughput(embedder, size: int, runs: int) -> tuple[float, float, float]:
    """Over `runs` batches of `size` fresh sentences: median sentences per second, median CPU ms per sentence (all
    threads of the process; less sensitive to other processes' load than wall time), and the load average after."""
    rates, cpu = [], []
    for run in range(runs):
        texts = sentences(size, run)
        start, start_cpu = time.perf_counter(), time.process_time()
        embedder.embed(texts)
        rates.append(size / (time.perf_counter() - start))
        cpu.append(1000 * (time.process_time() - start_cpu) / size)
    return statistics.median(rates), statistics.median(cpu), os.getloadavg()[0]


def report(label: str, embedder, runs: int) -> None:
    start = time.perf_counter()
    embedder.embed(["warm up"])
    print(f"{label}: first call {1000 * (time.perf_counter() - start):.0f} ms")
    for size in BATCH_SIZES:
        rate, cpu, load = throughput(embedder, size, max(runs, runs * 16 // size))
        print(
            f"  batch {size:3d}: {rate:6.0f} sentences/s, {1000 / rate:6.1f} ms each, {cpu:6.1f} CPU ms each"
            f" (load {load:.2f})"
        )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}, {os.cpu_count()} cpus")
    numpy_encoder = MiniLMEmbedder()
    report("numpy MiniLM", numpy_encoder, runs)
    try:
        from onnx_minilm import OnnxMiniLMEmbedder
    except ImportError:
        print("onnxruntime: not installed (uv pip install onnx onnxruntime)")
        return
    for threads in (1, 2):
        try:
            start = time.perf_counter()
            ort_encoder = OnnxMiniLMEmbedder(threads=threads)
            built = time.perf_counter() - start
        except ImportError:
            print("onnxruntime: not installed (uv pip install onnx onnxruntime)")
            return
        check = [*sentences(40, 99), "", "is idle", "café naïve façade 🎨"]
        difference = np.abs(ort_encoder.embed(check) - numpy_encoder.embed(check)).max()
        print(f"onnxruntime, {threads} thread(s): graph + session {built:.1f} s; max |ort - numpy| {difference:.1e}")
        report(f"onnxruntime {threads} thread(s)", ort_encoder, runs)
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
