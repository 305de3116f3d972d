"""Stopping a run cleanly on SIGTERM or Ctrl-C: finish the step under way, write a checkpoint, then exit.

A signal that raised at once would leave the model half-way through a step (some agents' memories written, the clock
not advanced), and a checkpoint of that would replay part of a step twice. So the first signal only asks the run to
stop at the next step boundary; a second one stops at once (losing the work since the last checkpoint).
"""

import logging
import signal
import threading
from types import FrameType, TracebackType

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
