"""Cells in local worker processes: each cell's model in its own process, on its own event loop.

Why not Mesa's `batch_run`: it takes a model class and a parameter dict, runs every combination from step 0 to
`max_steps` in a multiprocessing pool and returns the DataCollector rows in memory. It neither resumes (no
checkpoints: a killed batch starts over) nor farms out (one machine's pool only), and it keeps no run folder per
combination for report, interview or evaluate to read; nor can it stop a batch on a shared budget. So the cells
run here in a `ProcessPoolExecutor` of spawned workers (spawn, not fork: the driver may hold threads and a rich
display), each through the same cell runner that the Ray tasks use.
"""

import logging
import multiprocessing
import os
import queue
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from smallville.batch.cell import CellHooks, CellOutcome, run_cell
from smallville.batch.grid import CellSpec


class LocalExecutor:
    """Runs cells in worker processes of this machine; progress and the stop flag go through a queue and an event."""

    def __init__(self, batch: Path, workers: int | None = None):
        self.batch = batch
        self.slots = max(1, workers or os.cpu_count() or 1)
        context = multiprocessing.get_context("spawn")
        self._messages = context.Queue()
        self._stop = context.Event()
        self._pool = ProcessPoolExecutor(
            self.slots,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self._messages, self._stop, os.getpid()),
        )
        self._running: dict[Future, str] = {}

    def submit(self, spec: CellSpec, limits: dict) -> str:
        """Start a cell; returns its id as the handle."""
        future = self._pool.submit(_run_in_worker, spec, str(self.batch), limits)
        self._running[future] = spec.cell_id
        return spec.cell_id

    def poll(self, timeout: float) -> tuple[list[CellOutcome], list[dict]]:
        """Cells finished within `timeout` seconds, and the progress messages received meanwhile."""
        finished = []
        if self._running:
            done, _ = wait(list(self._running), timeout=timeout, return_when=FIRST_COMPLETED)
            for future in done:
                cell_id = self._running.pop(future)
                try:
                    finished.append(future.result())
                except Exception as error:
                    finished.append(CellOutcome(cell_id, "failed", message=f"worker died: {error}"))
        return finished, self._drain()

    def request_stop(self) -> None:
        """Ask the running cells to checkpoint and stop (the batch budget is spent)."""
        self._stop.set()

    def close(self) -> None:
        """Stop the workers."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._messages.close()

    def _drain(self) -> list[dict]:
        messages = []
        while True:
            try:
                messages.append(self._messages.get_nowait())
            except queue.Empty:
                return messages


# The worker's end of the driver's queue and stop flag, and the driver's process id (set once per worker).
_driver: dict = {}


def _start_worker(messages, stop, driver: int) -> None:
    _driver.update(messages=messages, stop=stop, pid=driver)


def _run_in_worker(spec: CellSpec, batch: str, limits: dict) -> CellOutcome:
    logging.basicConfig(level=logging.WARNING, format=f"%(levelname)s [{spec.cell_id}] %(name)s: %(message)s")
    hooks = CellHooks(
        report=lambda message: _quietly(_driver["messages"].put, message),
        should_stop=lambda: _quietly(_driver["stop"].is_set, default=False),
        alive=lambda: os.getppid() == _driver["pid"],
        max_calls=limits.get("max_calls"),
        max_cost=limits.get("max_cost"),
    )
    return run_cell(spec, Path(batch), hooks)


def _quietly(call, *args, default=None):
    """Talk to the driver; if it is gone, the alive() check ends the cell at the next report."""
    try:
        return call(*args)
    except (OSError, EOFError, ValueError):
        return default
