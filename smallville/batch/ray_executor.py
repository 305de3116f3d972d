"""Cells as Ray tasks on an existing cluster (`run.py batch --ray auto|ADDRESS`), or on a local Ray instance.

Nodes need not share a disk. A task receives its cell folder as bytes (empty for a new cell, the last checkpoint
for a resumed one), runs it in a temporary folder on its node, sends each checkpoint back through a small mailbox
actor as soon as it is written, and returns the finished folder as bytes; the driver writes all of them into its
own BATCH/cells/. When a worker or its node dies, the driver resubmits the cell with the folder of its last
checkpoint, so it continues from there rather than from the start (Ray's own task retries would resend the
original arguments). Every node needs this package installed in the same environment as the driver.
"""

import logging
import os
import shutil
import socket
import tempfile
import threading
from pathlib import Path

import ray

from smallville.batch.cell import CellHooks, CellOutcome, cell_folder, run_cell
from smallville.batch.grid import CellSpec
from smallville.batch.transfer import pack, unpack

logger = logging.getLogger(__name__)

# Times a cell is resubmitted after its worker or node died.
RETRIES = 3
# No usage statistics sent; a local instance also needs no token (else Ray writes one to ~/.ray/auth_token).
RAY_ENVIRONMENT = {"RAY_USAGE_STATS_ENABLED": "0"}
LOCAL_ENVIRONMENT = {"RAY_AUTH_MODE": "disabled"}


class RayUnreachable(RuntimeError):
    """No Ray cluster answers at the address given; the message names it, how long was waited, and the fix."""


def connect(address: str | None, workers: int | None = None) -> None:
    """Join a cluster ("auto" or an address), or start a local instance ("local"); nothing if Ray is running.

    Ray itself retries an address where no cluster answers without end, so the head is probed first (a TCP connect
    within PROBE_TIMEOUT_S), and joining is given JOIN_TIMEOUT_S: either way a missing cluster is one line.

    Raises:
        RayUnreachable: If no cluster answers at the address within those times.
    """
    if ray.is_initialized():
        return
    for name, value in RAY_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    if address in (None, "local"):
        for name, value in LOCAL_ENVIRONMENT.items():
            os.environ.setdefault(name, value)
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        return
    if address != "auto":
        probe(address)
    _join_within(address, JOIN_TIMEOUT_S)


# A cluster's head answers a TCP connect within milliseconds on a working network; joining it takes Ray a few seconds.
PROBE_TIMEOUT_S = 10.0
JOIN_TIMEOUT_S = 60.0
HOW_TO_START = "start one with `ray start --head` (or give its address: ray://HOST:10001 or HOST:6379)"


def probe(address: str, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Check that something listens at a Ray address (host:port, ray://host:port, or a bare host: port 6379).

    Raises:
        RayUnreachable: Naming the address, what happened and the fix.
    """
    bare = address.removeprefix("ray://")
    host, _, port = bare.rpartition(":") if ":" in bare else (bare, "", "6379")
    try:
        number = int(port)
    except ValueError:
        raise RayUnreachable(f"--ray {address}: {port!r} is not a port; give HOST:PORT, e.g. 10.0.0.5:6379") from None
    try:
        with socket.create_connection((host.strip("[]"), number), timeout=timeout_s):
            return
    except TimeoutError:
        reason = f"no answer within {timeout_s:g} s"
    except OSError as error:
        reason = error.strerror or str(error)
    raise RayUnreachable(f"--ray {address}: no Ray cluster answers there ({reason}); {HOW_TO_START}")


def _join_within(address: str, timeout_s: float) -> None:
    """ray.init(address), given up after `timeout_s` (its thread is left behind; the process is about to end)."""
    failure: list[BaseException] = []

    def join() -> None:
        try:
            ray.init(address=address, log_to_driver=False)
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=join, name="ray-join", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise RayUnreachable(f"--ray {address}: no Ray cluster joined within {timeout_s:g} s; {HOW_TO_START}")
    if failure:
        first = str(failure[0]).strip().splitlines()[0] if str(failure[0]).strip() else type(failure[0]).__name__
        raise RayUnreachable(f"--ray {address}: {first}; {HOW_TO_START}") from failure[0]


@ray.remote(num_cpus=0)
class Mailbox:
    """Progress messages, each cell's latest checkpoint, and the stop flag, between the tasks and the driver."""

    def __init__(self):
        self.messages: list[dict] = []
        self.checkpoints: dict[str, bytes] = {}
        self.stop = False

    def report(self, message: dict) -> None:
        """Keep a progress message."""
        self.messages.append(message)

    def checkpoint(self, cell_id: str, data: bytes) -> None:
        """Keep a cell's newest checkpointed folder."""
        self.checkpoints[cell_id] = data

    def drain(self) -> tuple[list[dict], dict[str, bytes]]:
        """Everything received since the last drain."""
        messages, checkpoints = self.messages, self.checkpoints
        self.messages, self.checkpoints = [], {}
        return messages, checkpoints

    def request_stop(self) -> None:
        """Ask the cells to stop."""
        self.stop = True

    def stopped(self) -> bool:
        """Whether the cells should stop."""
        return self.stop


@ray.remote(num_cpus=1, max_retries=0)
def run_cell_task(spec: CellSpec, folder: bytes | None, limits: dict, mailbox, crash_after: int | None = None):
    """Run a cell on this node in a temporary folder; returns its outcome and the finished folder as bytes."""
    root = Path(tempfile.mkdtemp(prefix="smallville-cell-"))
    try:
        local = cell_folder(root, spec.cell_id)
        if folder:
            unpack(folder, local)
        checkpoints = 0

        def send_checkpoint(path: Path) -> None:
            nonlocal checkpoints
            ray.get(mailbox.checkpoint.remote(spec.cell_id, pack(path)))
            checkpoints += 1
            if crash_after is not None and checkpoints >= crash_after:
                os._exit(1)  # a test's stand-in for a worker that dies

        hooks = CellHooks(
            report=mailbox.report.remote,
            should_stop=lambda: ray.get(mailbox.stopped.remote()),
            on_checkpoint=send_checkpoint,
            max_calls=limits.get("max_calls"),
            max_cost=limits.get("max_cost"),
        )
        outcome = run_cell(spec, root, hooks)
        return outcome, pack(local) if local.is_dir() else None
    finally:
        shutil.rmtree(root, ignore_errors=True)


class RayExecutor:
    """Runs cells as Ray tasks, as many at once as the cluster has CPUs (or `workers`)."""

    def __init__(self, batch: Path, address: str | None = "auto", workers: int | None = None, crash_after=None):
        connect(address, workers)
        self.batch = batch
        self.slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._mailbox = Mailbox.remote()
        self._tasks: dict = {}
        self._crash_after = crash_after  # tests only: the first attempt of each cell dies after n checkpoints

    def submit(self, spec: CellSpec, limits: dict, attempt: int = 0) -> str:
        """Start a cell's task with its folder as the driver has it."""
        folder = cell_folder(self.batch, spec.cell_id)
        data = pack(folder) if folder.is_dir() else None
        crash = self._crash_after if attempt == 0 else None
        reference = run_cell_task.remote(spec, data, limits, self._mailbox, crash)
        self._tasks[reference] = (spec, limits, attempt)
        return spec.cell_id

    def poll(self, timeout: float) -> tuple[list[CellOutcome], list[dict]]:
        """Finished cells (their folders written into the batch) and progress messages."""
        ready = []
        if self._tasks:
            ready, _ = ray.wait(list(self._tasks), num_returns=len(self._tasks), timeout=timeout)
        messages, checkpoints = ray.get(self._mailbox.drain.remote())
        for cell_id, data in checkpoints.items():
            unpack(data, cell_folder(self.batch, cell_id))
        finished = []
        for reference in ready:
            spec, limits, attempt = self._tasks.pop(reference)
            try:
                outcome, data = ray.get(reference)
            except ray.exceptions.RayTaskError as error:
                finished.append(CellOutcome(spec.cell_id, "failed", message=str(error).splitlines()[0]))
                continue
            except ray.exceptions.RayError as error:  # the worker or its node died: resume from the checkpoint
                if attempt < RETRIES:
                    logger.warning("cell %s: %s; retrying from its last checkpoint", spec.cell_id, type(error).__name__)
                    self.submit(spec, limits, attempt + 1)
                else:
                    finished.append(
                        CellOutcome(spec.cell_id, "failed", message=f"{type(error).__name__} x{attempt + 1}")
                    )
                continue
            if data is not None:
                unpack(data, cell_folder(self.batch, spec.cell_id))
            finished.append(outcome)
        return finished, messages

    def request_stop(self) -> None:
        """Ask the running cells to checkpoint and stop."""
        self._mailbox.request_stop.remote()

    def close(self) -> None:
        """Forget the mailbox (the cluster stays up; a local instance ends with the driver)."""
        ray.kill(self._mailbox)
