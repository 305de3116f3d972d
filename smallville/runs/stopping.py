"""Stopping a run cleanly on SIGTERM or Ctrl-C: finish the step under way, write a checkpoint, then exit.

A signal that raised at once would leave the model half-way through a step (some agents' memories written, the clock
not advanced), and a checkpoint of that would replay part of a step twice. So the first signal only asks the run to
stop at the next step boundary; a second one stops at once (losing the work since the last checkpoint). A budget
(`--max-cost`) stops a run the same way, a step before the step that could pass it (`CostProjection`).
"""

import logging
import signal
import threading
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from types import FrameType, TracebackType

from agents import BudgetExceeded

logger = logging.getLogger(__name__)


class StopRequests:
    """Catches SIGTERM and SIGINT for a `with` block; `requested` says whether (and which) arrived.

    Handlers can only be installed from the main thread; elsewhere (a test's worker thread) this does nothing.
    """

    def __init__(self) -> None:
        self.signal: int | None = None
        self._previous: dict[int, object] = {}

    @property
    def requested(self) -> bool:
        """Whether a stop was asked for."""
        return self.signal is not None

    @property
    def exit_code(self) -> int:
        """The shell's convention: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM)."""
        return 128 + (self.signal or 0)

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.signal is not None:
            raise KeyboardInterrupt
        self.signal = number
        logger.warning(
            "%s: stopping at the next step boundary, after a checkpoint (again: stop at once)",
            signal.Signals(number).name,
        )

    def __enter__(self) -> "StopRequests":
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGTERM, signal.SIGINT):
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()


@dataclass
class CostProjection:
    """What the run will cost by its end, and whether the next step could pass `--max-cost`, from the ledger so far.

    The projection is the run's spending rate over the simulated time so far, carried to its end (a night costs
    nothing and a morning's plans much, so it is rough early in a day and settles as the day goes). The budget is
    guarded a step ahead: a step, once begun, is never cut in half, so the run stops before one whose cost could take
    it past the budget, judged by the dearest step of the last simulated hour.
    """

    start: datetime
    end: datetime
    max_cost: float | None = None
    recent_steps: int = 360  # an hour of 10-second steps
    _step_costs: deque = field(default_factory=deque)
    _last_spent: float | None = None

    def projected(self, now: datetime, spent: float) -> float:
        """The run's cost at its end if it keeps spending at its rate so far (what it spent, before any time passed)."""
        done = (now - self.start).total_seconds()
        whole = (self.end - self.start).total_seconds()
        return spent if done <= 0 else spent * max(1.0, whole / done)

    def after_step(self, spent: float) -> None:
        """Note what the run has spent after a step (the step's cost is the difference)."""
        if self._last_spent is not None:
            self._step_costs.append(max(0.0, spent - self._last_spent))
            if len(self._step_costs) > self.recent_steps:
                self._step_costs.popleft()
        self._last_spent = spent

    def check(self, now: datetime, spent: float) -> None:
        """Raise BudgetExceeded (before a step) if the next step could take the run past `max_cost`.

        Raises:
            BudgetExceeded: With what was spent, what the next step may cost and the projection to the run's end.
        """
        if self._last_spent is None:  # the first step's cost is counted from here
            self._last_spent = spent
        if self.max_cost is None:
            return
        next_step = max(self._step_costs, default=0.0)
        if spent + next_step > self.max_cost:
            raise BudgetExceeded(
                f"the budget of ${self.max_cost:.2f} would be passed by the next step (spent ${spent:.2f}; a step of "
                f"the last hour cost up to ${next_step:.2f}; the whole run projects to "
                f"${self.projected(now, spent):.2f})",
                "cost",
            )
