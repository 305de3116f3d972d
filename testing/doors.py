"""The doors' contract, for the fuzz tests and benchmarks/bench_fuzz_doors.py: what a value coming in may do.

Every door (a flag of any command, a field of a scenario, a grid or a battery file, a value in a run's config.json)
either takes the value and honours it, or refuses it in exactly one line naming the door and the fix: never a
traceback, never silence (exit 0 without having done what was asked), never a wait without a bound. `knock` runs one
command in-process (no subprocess: a fuzz example costs milliseconds) with the step that would write stopped just
before it writes, so a value every check took reaches it (`Accepted`, carrying what would have been written) and
nothing is ever written. Each check returns the violation in words, or None: the tests assert None, the benchmark
counts them.
"""

import contextlib
import io
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

# Seconds a door may take on one value in-process: far beyond the slowest honest one (a first scenario load, ~1 s
# on an idle machine; the rig runs beside other work), far short of a hang.
BOUND_S = 120.0


class Accepted(BaseException):
    """Raised in place of the first write: every check passed; `what` is what would have been written."""

    def __init__(self, what: Any):
        super().__init__("accepted")
        self.what = what


class Unbounded(BaseException):
    """A door that took longer than its bound on one value."""


@dataclass
class Knock:
    """What one command did with its arguments.

    Attributes:
        argv: The arguments.
        code: Its exit code (None when it reached the write: `accepted` holds what it would have written).
        err: What it printed on standard error.
        accepted: What the write would have received, when every check passed.
    """

    argv: list[str]
    code: int | None
    err: str
    accepted: Any = None
    lines: list[str] = field(default_factory=list)


@contextlib.contextmanager
def bounded(seconds: float = BOUND_S) -> Iterator[None]:
    """Raise Unbounded in the block if it runs longer than `seconds` (SIGALRM: the main thread only)."""

    def expire(signum, frame):
        raise Unbounded(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _stop_before_writing() -> contextlib.ExitStack:
    """Patches that stop each command at its first write, raising Accepted with what it would write."""
    from smallville.commands import batch, intervene, interview, models, simulate  # noqa: PLC0415 - heavy

    def accept(*args, **kwargs):
        raise Accepted((args, kwargs))

    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(simulate.RunStore, "create", side_effect=accept))  # simulate, serve
    stack.enter_context(mock.patch.object(simulate, "open_store", side_effect=accept))  # resume
    stack.enter_context(mock.patch.object(batch, "prepare", side_effect=accept))
    stack.enter_context(mock.patch.object(interview, "load_run", side_effect=accept))
    stack.enter_context(mock.patch.object(intervene, "load_run", side_effect=accept))
    stack.enter_context(mock.patch.object(models, "try_every_kind", side_effect=accept))
    return stack


def knock(argv: list[str], seconds: float = BOUND_S) -> Knock:
    """Run `run.py ARGV` in-process, stopped at its first write; what it printed and how it ended."""
    from smallville.cli import main  # noqa: PLC0415 - the rig loads the product only when used

    err, out = io.StringIO(), io.StringIO()
    accepted = None
    with _stop_before_writing(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            with bounded(seconds):
                code = main(argv)
        except Accepted as done:
            code, accepted = None, done.what
        except Unbounded:
            code = -1
    text = err.getvalue()
    return Knock(argv, code, text, accepted, [line for line in text.splitlines() if line.strip()])


def refusal_violation(result: Knock, names: tuple[str, ...] = ()) -> str | None:  # noqa: PLR0911 - one return a verdict
    """The contract for a command that did not reach its write: exit 1 or 2 with one line naming the door.

    Args:
        result: What the command did.
        names: Words of which the line must hold one (the flag, the file, the key); () for any.
    """
    if result.code == -1:
        return "unbounded: no answer within the bound"
    if "Traceback" in result.err or result.code == 70:
        last = result.lines[-1] if result.lines else ""
        return f"traceback: {last[:200]}"
    if result.code == 0:
        return "silence: exit 0 without doing what was asked"
    if result.code not in (1, 2):
        return f"exit {result.code}: not a refusal's code"
    if len(result.lines) != 1:
        return f"{len(result.lines)} lines instead of one: {result.err[:300]!r}"
    if names and not any(name in result.lines[0] for name in names):
        return f"the line names none of {names}: {result.lines[0][:200]}"
    return None


def contract_violation(result: Knock, names: tuple[str, ...] = ()) -> str | None:
    """Accepted (checked by the caller for being honoured) or refused in one line naming the door."""
    if result.accepted is not None:
        return None
    return refusal_violation(result, names)
