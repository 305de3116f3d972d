"""Cells per hour and overhead per cell for tiny cells: local worker processes against a local Ray instance.

The overhead per cell is the batch's wall time per cell minus the cells' own simulated wall time per cell (model
build and stepping, from cell.json), i.e. process start, imports, folder transfer and scheduling.
Run: .venv/bin/python benchmarks/bench_batch.py [--repeats 3] [--cells 4]
"""

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from smallville.batch import Budget, LocalExecutor, expand, prepare, results_frame, run_batch, validate_grid


def grid(cells: int) -> dict:
    return {
        "seeds": list(range(cells)),
        "scenarios": ["the_ville_n3"],
        "until": "2023-02-13T01:00:00",
        "parameters": {"embedder": "hashing"},
        "conditions": {"full": {}},
    }


def one(kind: str, cells: int, workers: int) -> tuple[float, float]:
    data = grid(cells)
    specs = expand(validate_grid(data, "bench"))
    with tempfile.TemporaryDirectory() as folder:
        batch = Path(folder) / "batch"
        prepare(batch, specs, data)
        started = time.perf_counter()
        if kind == "local":
            executor = LocalExecutor(batch, workers=workers)
        else:
            from smallville.batch.ray_executor import RayExecutor

            executor = RayExecutor(batch, address="local", workers=workers)
        run_batch(batch, specs, executor, Budget())
        wall = time.perf_counter() - started
        inside = results_frame(batch)["wall_seconds"].sum()
    return wall, (wall * workers - inside) / cells


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cells", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for kind in ("local", "ray"):
        runs = [one(kind, args.cells, args.workers) for _ in range(args.repeats)]
        wall = statistics.median(run[0] for run in runs)
        overhead = statistics.median(run[1] for run in runs)
        print(f"{kind:>5}: {args.cells} cells x 1 simulated hour, {args.workers} workers: median {wall:.1f} s, "
              f"{3600 * args.cells / wall:.0f} cells/hour, overhead {overhead:.1f} s/cell "
              f"(load average {os.getloadavg()[0]:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
