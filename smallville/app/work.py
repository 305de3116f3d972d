"""The model's work off the page's thread: steps, play, interviews, whispers and Reset run one at a time, in order.

Solara handles a tab's messages one after another in one thread, so a handler that waits for a language model
freezes the tab: no click, no selection, no typing gets through until the calls are answered. Here a handler only
queues a job and returns; one worker thread per model runs the queue (it exists while there is work), so two jobs
never touch the model at once and Play cannot overlap its steps. While a job runs, the page shows what is in flight
(`queue`); a job that fails shows one line (`failure`) and is logged with its traceback. When the tab goes away
(or Reset replaces the model), `close` drops what waits, and the model is closed once the job in flight has ended.
"""

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import solara
from mesa.visualization.utils import force_update

from smallville.app.inputs import Refused
from smallville.app.per_model import PerModel

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """One piece of work on the model.

    Attributes:
        kind: What sort of work: "step", "play", "interview", "whisper", "reset" (the buttons ask what is queued).
        label: What the page shows while it waits or runs, e.g. "The town is thinking: the step from 08:00:00".
        run: The work itself, called in the worker thread; its result goes to `done`.
        done: Called with the result in the worker thread (set reactive values here; they re-render the page).
        failed: Called with the one-line message if `run` or `done` raised; by default it becomes `Work.failure`.
        then: Called when the job has left the queue (not after a failure); the job it returns, if any, is queued
            in the same moment, behind what waits already (Play's next turn: never two turns in the queue).
    """

    kind: str
    label: str
    run: Callable[[], Any]
    done: Callable[[Any], None] | None = None
    failed: Callable[[str], None] | None = None
    then: "Callable[[], Job | None] | None" = None


def one_line(problem: BaseException) -> str:
    """An exception as one short line: its message's first line, or its type when it has none."""
    text = str(problem).strip().splitlines()
    return text[0] if text else type(problem).__name__


class Work:
    """The queue of one model's jobs, run in order by a worker thread that lives while the queue is not empty."""

    def __init__(self):
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._jobs: deque[Job] = deque()  # the running job first, then the waiting ones
        self._worker: threading.Thread | None = None
        self._closed = False
        self._last: Callable[[], None] | None = None  # what `close` asked to run once the worker has ended
        self.queue: solara.Reactive[tuple[Job, ...]] = solara.Reactive(())  # as the page shows it: running first
        self.failure = solara.Reactive("")  # the last failure of a job without its own `failed`, in one line
        # While Play is on, the token of that press of Play (None when paused): each play step queues the next one.
        self.playing: solara.Reactive[object | None] = solara.Reactive(None)

    def submit(self, job: Job) -> None:
        """Queue a job and return at once; the worker thread starts if none is running. Closed, it does nothing."""
        with self._lock:
            if self._closed:
                return
            self._jobs.append(job)
            if self._worker is None:
                # Started from a handler, the thread inherits the tab's Solara context (Solara patches Thread).
                self._worker = threading.Thread(target=self._drain, name="smallville-work", daemon=True)
                self._worker.start()
            queue = tuple(self._jobs)
        self.queue.set(queue)

    def pending(self, *kinds: str) -> bool:
        """Whether a job of one of these kinds is running or waiting."""
        with self._lock:
            return any(job.kind in kinds for job in self._jobs)

    @property
    def closed(self) -> bool:
        """Whether the tab has gone (or Reset replaced the model): the job in flight should end soon."""
        with self._lock:
            return self._closed

    @property
    def busy(self) -> bool:
        """Whether any job is running or waiting."""
        with self._lock:
            return bool(self._jobs)

    def close(self, last: Callable[[], None] | None = None) -> None:
        """Drop the waiting jobs and accept no more; `last` (closing the model) runs when the job in flight ends."""
        with self._lock:
            self._closed = True
            if self._worker is None:
                run_now = True
            else:
                run_now = False
                self._last = last
                while len(self._jobs) > 1:
                    self._jobs.pop()
        if run_now and last is not None:
            last()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the queue is empty (tests, and closing a model); False if `timeout` passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._jobs, timeout)

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._jobs:
                    self._worker = None
                    last, self._last = self._last, None
                    self._idle.notify_all()
                    break
                job = self._jobs[0]
            follow = self._run(job)
            with self._lock:
                self._jobs.popleft()
                if follow is not None and not self._closed:
                    self._jobs.append(follow)
                queue, closed = tuple(self._jobs), self._closed
            if not closed:  # a closed tab has no page left to show it
                self.queue.set(queue)
        if last is not None:
            last()

    def _run(self, job: Job) -> Job | None:
        """Run a job; what its `then` queues next."""
        try:
            result = job.run()
            if job.done is not None:
                job.done(result)
            return job.then() if job.then is not None else None
        except Exception as problem:  # shown on the page in one line, logged with its traceback
            logger.exception("%s failed", job.kind)
            message = one_line(problem)
            try:
                if job.failed is not None:
                    job.failed(message)
                else:
                    self.playing.set(None)
                    self.failure.set(f"The {job.kind} failed: {message}")
            except Exception:  # the page may be gone (tab closed): the log above still has it
                logger.exception("could not show that the %s failed", job.kind)
            return None


def then_redraw(show: Callable[[Any], None]) -> Callable[[Any], None]:
    """A `done` for work that changes the town: show what it did, then redraw every panel so the change shows."""

    def done(result: Any) -> None:
        show(result)
        force_update()

    return done


_WORK = PerModel(Work)


def work_of(model) -> Work:
    """The work queue of a model (one per model, made on first use, gone with the model)."""
    return _WORK.of(model)


def submit_checked(model, error: solara.Reactive, make_job: Callable[[], Job]) -> bool:
    """A button's work: the job `make_job` builds from the values it checks, queued; whether it was queued.

    A value refused (`inputs.Refused`) is shown in one line in `error`, beside the control, and nothing is queued;
    `error` is cleared first, so an old refusal never stays under a value that has been fixed.
    """
    error.set("")
    try:
        job = make_job()
    except Refused as refused:
        error.set(str(refused))
        return False
    work_of(model).submit(job)
    return True
