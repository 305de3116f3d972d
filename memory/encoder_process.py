"""An encoder run in a child process, so that its Python between numpy kernels never waits for the simulation's GIL.

A numpy encoder releases the GIL inside each matrix product but needs it back for the next operation, about a hundred
times a sentence; while the town steps, the main thread holds the GIL and hands it over every 5 ms at best. Measured
on the MiniLM day (benchmarks/bench_day.py): the encoder thread was busy 40 s for 23 s of its own CPU, the rest waiting
for the GIL. In its own process the encoder runs beside the town on the second core.

The child is a plain `python memory/encoder_worker.py` speaking pickles over its stdin and stdout, not a
multiprocessing pool: "spawn" re-imports the parent's main script, which breaks every script without a
`if __name__ == "__main__"` guard, and forking beside the event loop's threads is unsafe.
"""

import logging
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

WORKER = Path(__file__).with_name("encoder_worker.py")


class EncoderProcessError(RuntimeError):
    """The encoder's child process exited; what it printed on stderr says why."""


class ProcessEmbedder:
    """Runs an embedder class in one child process and forwards `embed` to it.

    The child starts at once and is asked for a first vector, so that it loads its weights while the town is built. If
    it exits, the next call starts another and logs a warning; if that one exits too, the call raises.

    Args:
        target: The embedder class, as "module:Class" (built with no arguments in the child).
        name: The embedder's name, as the class gives it.
        dim: Its vectors' length.
        cache_key: What its vectors are filed under in a vector cache on disk.
    """

    def __init__(self, target: str, name: str, dim: int, cache_key: str | None = None):
        self.target = target
        self.name = name
        self.dim = dim
        self.cache_key = cache_key or f"{name}/{dim}"
        self._lock = threading.Lock()
        self._child: subprocess.Popen | None = None
        self._unread = 0  # answers the child owes to requests nobody waits for (the warm-up)
        with self._lock:
            self._send(["warm-up"])
            self._unread += 1

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts in the child process: (n, dim) float32."""
        texts = list(texts)
        with self._lock:
            try:
                return self._ask(texts)
            except EncoderProcessError as error:
                log.warning("%s during a request; starting another", error)
                self._child = None
                return self._ask(texts)

    def close(self) -> None:
        """Stop the child process; a later `embed` starts another."""
        with self._lock:
            child, self._child = self._child, None
            self._unread = 0
        if child is not None:
            child.stdin.close()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            child.stdout.close()

    def __del__(self):
        if getattr(self, "_child", None) is not None:
            self.close()

    # --- the pipe (the caller holds the lock) ------------------------------------------------------------------------

    def _ask(self, texts: list[str]) -> np.ndarray:
        self._send(texts)
        while self._unread:
            self._unread -= 1
            try:
                self._receive()
            except EncoderProcessError:
                raise
            except Exception as error:  # the warm-up's own error comes again with this request
                log.debug("the %s encoder's warm-up failed: %s", self.name, error)
        return self._receive()

    def _send(self, texts: list[str]) -> None:
        if self._child is not None and self._child.poll() is not None:
            log.warning("the %s encoder process exited (code %s); starting another", self.name, self._child.returncode)
            self._child = None
        if self._child is None:
            self._child = subprocess.Popen(
                [sys.executable, str(WORKER), self.target], stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
            self._unread = 0
        try:
            pickle.dump(texts, self._child.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self._child.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise self._exited(self._child.poll()) from error

    def _receive(self) -> np.ndarray:
        try:
            ok, answer = pickle.load(self._child.stdout)
        except EOFError as error:
            raise self._exited(self._child.wait()) from error
        if not ok:
            raise answer
        return answer

    def _exited(self, code: int | None) -> EncoderProcessError:
        return EncoderProcessError(
            f"the {self.name} encoder process exited (code {code}; what it printed, if anything, is on stderr above)"
        )


class ProcessPoolEmbedder:
    """Several encoder processes behind one `embed`: a batch asked for while one process encodes goes to another.

    The town often asks for one sentence (a talk's next focal point) while the encoder is busy with the memories a step
    stored, and with one process it waited behind them. A sentence's vector is the same in any batch, so which process
    encodes it changes nothing but the time. Measured on the MiniLM day (benchmarks/bench_day.py, 6 alternated pairs,
    load 1.6-2.4): the town waited 11.2-12.4 s for vectors with two processes against 13.0-14.5 s with one, and the day
    took 0.2-2.3 s less in 5 of the 6 pairs.

    Args:
        target, name, dim, cache_key: As for ProcessEmbedder.
        processes: How many children; `workers` tells a BatchingEmbedder how many batches to have under way at once.
    """

    def __init__(self, target: str, name: str, dim: int, cache_key: str | None = None, processes: int = 2):
        if processes < 1:
            raise ValueError(f"processes must be at least 1, got {processes}")
        self._children = [ProcessEmbedder(target, name, dim, cache_key) for _ in range(processes)]
        self.name, self.dim, self.cache_key = name, dim, self._children[0].cache_key
        self.workers = processes
        self._free: queue.SimpleQueue[ProcessEmbedder] = queue.SimpleQueue()
        for child in self._children:
            self._free.put(child)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts in the first free child process: (n, dim) float32."""
        child = self._free.get()
        try:
            return child.embed(texts)
        finally:
            self._free.put(child)

    def close(self) -> None:
        """Stop the child processes; a later `embed` starts others."""
        for child in self._children:
            child.close()
