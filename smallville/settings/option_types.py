"""Validators for command-line values (argparse's `type=`): each refuses a bad value in one line with the fix.

A mistake caught here never reaches the model, where it would surface as a traceback or, worse, be accepted
silently (`--days -1` ran nothing and exited 0). Every message says what is wrong and what to give instead; argparse
adds the flag's name. Only the standard library (and keep_schedule, which needs nothing more) is imported at
module level, so `--help` stays fast. The numbers' bounds are ranges.py's, the one schema every door shares.
"""

import argparse
import math
import os
import shutil
import unicodedata
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from smallville.settings.keep_schedule import KeepSchedule
from smallville.settings.ranges import MAX_DAYS, RANGES, check_number

# Bounds live in ranges.py (one schema for every door); these names are kept for their readers.
MAX_SECONDS_PER_STEP = int(RANGES["seconds_per_step"].high)  # the scenario file's own bound
MAX_IN_FLIGHT = int(RANGES["max_in_flight"].high)
MAX_SEED = int(RANGES["rng"].high)
MAX_THINKING_STEPS = int(RANGES["thinking_steps"].high)
# Whispers and interview questions: a paragraph, not a file pasted by mistake (one memory, one prompt line).
MAX_STATEMENT_CHARS = 2000
SQLITE_HEADER = b"SQLite format 3\x00"

__all__ = [
    "MAX_DAYS",
    "MAX_STATEMENT_CHARS",
    "above_zero",
    "agents_value",
    "cache_file",
    "change_text",
    "checkpoint_minutes",
    "days",
    "fallback_share",
    "hour",
    "integer_in",
    "keep_checkpoints",
    "max_calls",
    "max_cost",
    "max_in_flight",
    "naive_time",
    "out_folder",
    "path_text",
    "persona",
    "port",
    "question",
    "ranged",
    "repeats",
    "retrieval_weights",
    "seconds_per_step",
    "seed",
    "share",
    "statement",
    "thinking_steps",
    "timeout",
    "until",
    "visible",
    "writable_file",
]


def _number(text: str, kind: type, example: str) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not {'a whole number' if kind is int else 'a number'}; give e.g. {example}"
        ) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; give e.g. {example}")
    return value


def above_zero(
    text: str, example: str, *, at_most: float | None = None, label: str = "{}", unit: str = "", noun: str = ""
) -> float:
    """A number more than 0 (and at most `at_most`), refused in one line: "<label>: give <noun>more than 0<unit>"."""
    value = _number(text, float, example)
    if value <= 0 or (at_most is not None and value > at_most):
        bound = f" and at most {at_most:g}" if at_most is not None else ""
        raise argparse.ArgumentTypeError(f"{label.format(text)}: give {noun}more than 0{unit}{bound}, e.g. {example}")
    return value


def integer_in(text: str, low: int, high: int | None, example: str) -> int:
    """A whole number from low to high (None: no upper bound), refused in one line with an example."""
    value = int(_number(text, int, example))
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise argparse.ArgumentTypeError(f"{value} is out of range; give a whole number {span}, e.g. {example}")
    return value


def ranged(name: str) -> "Callable[[str], float]":
    """The validator of the number named `name` in ranges.RANGES: its flag's `type`, and every file's check of it."""

    def parse(text: str) -> float:
        return check_number(name, text)

    parse.__name__ = f"{name} in {RANGES[name].span()}"
    return parse


def share(text: str) -> float:
    """A number in (0, 1] (the recency decay)."""
    return above_zero(text, "0.995", at_most=1, noun="a number ")


def hour(text: str) -> int:
    """An hour of the day, 0-23."""
    return integer_in(text, 0, 23, "23")


def days(text: str) -> float:
    """--days: simulated days, more than 0 and at most MAX_DAYS (and at least one step: validation.check_end)."""
    return above_zero(text, "1 or 0.5", at_most=MAX_DAYS, label="{} days")


def repeats(text: str) -> int:
    """`evaluate --repeats`: rankings per question, each a judge's call per question and agent (1 to 20)."""
    return check_number("repeats", text)


def naive_time(value: datetime) -> datetime:
    """A simulated time as given, refused if it names a time zone: the town's clock has none.

    Converting "12:00+05:00" to some zone would guess which one the user meant (the scenario's start names none), so
    every door refuses it the same way: flags, scenario files, grids, interventions and a run's config.

    Raises:
        ValueError: If the time has a time zone.
    """
    if value.tzinfo is not None:
        raise ValueError(
            f"{value.isoformat()} names a time zone, and the town's clock has none; give the time without it, "
            f"e.g. {value.replace(tzinfo=None):%Y-%m-%dT%H:%M}"
        )
    return value


def until(text: str) -> datetime:
    """--until (and --at): a simulated time without a time zone (its order against the start is checked later)."""
    try:
        return naive_time(datetime.fromisoformat(text.strip()))
    except ValueError as error:
        if "time zone" in str(error):
            raise argparse.ArgumentTypeError(str(error)) from None
        raise argparse.ArgumentTypeError(f"{text!r} is not a date and time; give e.g. 2023-02-13T12:00") from None


def seconds_per_step(text: str) -> int:
    """--seconds-per-step: 1 to MAX_SECONDS_PER_STEP."""
    return integer_in(text, 1, MAX_SECONDS_PER_STEP, "10")


def checkpoint_minutes(text: str) -> float:
    """--checkpoint-minutes: more than 0, at most the longest run."""
    return above_zero(text, "60", at_most=RANGES["checkpoint_minutes"].high, label="{} minutes")


def max_calls(text: str) -> int:
    """--max-calls: at least one call, at most a billion."""
    return check_number("max_calls", text)


def max_cost(text: str) -> float:
    """--max-cost: more than 0 dollars, at most a million."""
    return above_zero(text, "2.50", at_most=RANGES["max_cost"].high, label="${}", unit=" dollars")


def max_in_flight(text: str) -> int:
    """--max-in-flight: 1 to MAX_IN_FLIGHT."""
    return integer_in(text, 1, MAX_IN_FLIGHT, "25 (1 for a single-slot local server)")


def seed(text: str) -> int:
    """--seed: a non-negative whole number (numpy refuses negative seeds)."""
    return integer_in(text, 0, MAX_SEED, "0")


def timeout(text: str) -> float:
    """--timeout: seconds a model call may take, more than 0 and at most an hour."""
    return above_zero(text, "60", at_most=RANGES["timeout"].high, label="{} seconds")


def port(text: str) -> int:
    """--port: a TCP port."""
    return integer_in(text, 1, 65535, "8765")


def fallback_share(text: str) -> float:
    """--max-fallback-share: a share from 0 to 1."""
    value = _number(text, float, "0.5")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text}: give a share from 0 to 1, e.g. 0.5")
    return value


def agents_value(text: str) -> int | list[str] | None:
    """--agents: "all", a number (at least 1), or comma-separated names (their existence is the scenario's check)."""
    if text.strip() == "all":
        return None
    if text.strip().lstrip("-").isdigit():
        return check_number("agents", text.strip())
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError(
            f"{text!r} names no agent; give all, a number, or names like 'Isabella Rodriguez,Klaus Mueller'"
        )
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise argparse.ArgumentTypeError(f"{', '.join(duplicates)} named twice; name each agent once")
    return names


def retrieval_weights(text: str) -> str:
    """--retrieval-weights: "paper", "original" or three non-negative numbers, not all zero (kept as text)."""
    if text in ("paper", "original"):
        return text
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 3 or not all(math.isfinite(v) and v >= 0 for v in values) or not any(values):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give 'paper' (1,1,1), 'original' (0.5,3,2) or three numbers >= 0, not all 0, like 1,2,1"
        )
    return text


def cache_file(text: str) -> str:
    """--cache: a SQLite file written by an earlier run, or a new file in an existing folder."""
    path = Path(path_text(text))
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give a file, e.g. {path / 'cache.sqlite'}")
    if path.exists():
        try:
            with path.open("rb") as handle:
                header = handle.read(len(SQLITE_HEADER))
        except OSError as error:
            raise argparse.ArgumentTypeError(f"{text}: cannot be read ({error.strerror})") from None
        if header and header != SQLITE_HEADER:
            raise argparse.ArgumentTypeError(
                f"{text} is not a SQLite file; give a cache an earlier run wrote, or a new file name"
            )
    elif not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: folder {path.parent} does not exist; create it first")
    return text


def _text(text: str, what: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            f"the {what} is not valid UTF-8 text; check the terminal's encoding (e.g. LANG=C.UTF-8)"
        ) from None
    stripped = text.strip()
    if not visible(stripped):
        raise argparse.ArgumentTypeError(f'the {what} is empty; give a sentence, e.g. "You are running for mayor"')
    if len(stripped) > MAX_STATEMENT_CHARS:
        raise argparse.ArgumentTypeError(
            f"the {what} has {len(stripped)} characters, more than {MAX_STATEMENT_CHARS}; give a shorter one"
        )
    if any(ord(char) < 32 and char not in "\n\t" for char in stripped):
        raise argparse.ArgumentTypeError(f"the {what} holds control characters; give plain text")
    return stripped


def visible(text: str) -> bool:
    """Whether a text shows anything: letters, digits or signs, not only spaces and invisible format characters.

    Zero-width spaces and joiners (Unicode's format category) are not whitespace to `str.strip`, so a statement made
    only of them passed as text while an agent would remember nothing readable.
    """
    return any(unicodedata.category(char)[0] not in "ZC" for char in text)


# The file systems' limits: a name (one part of a path) of 255 bytes, a whole path of 4096.
MAX_NAME_BYTES, MAX_PATH_BYTES = 255, 4096


def path_text(text: str) -> str:
    """A path the file system can take: no NUL, no name longer than it allows (a run folder, a file, a scenario).

    Such a path used to reach the first `open` or `stat` and end in a traceback (File name too long).
    """
    if "\x00" in text:
        raise argparse.ArgumentTypeError("the path holds a NUL character; give a plain path")
    try:
        parts = [part.encode() for part in Path(text).parts]
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            "the path is not valid UTF-8 text; check the terminal's encoding (e.g. LANG=C.UTF-8)"
        ) from None
    if any(len(part) > MAX_NAME_BYTES for part in parts) or len(text.encode()) > MAX_PATH_BYTES:
        raise argparse.ArgumentTypeError(
            f"{text[:40]}...: a name in the path is longer than the file system takes ({MAX_NAME_BYTES} bytes a name, "
            f"{MAX_PATH_BYTES} a path); give a shorter one"
        )
    return text


def out_folder(text: str) -> str:
    """--out: a folder's path, not empty (an empty one meant the default folder, silently), not under a file."""
    if not visible(text):
        raise argparse.ArgumentTypeError("the folder is empty; give a path, e.g. runs/my-run")
    path = Path(path_text(text)).absolute()
    file = next((parent for parent in path.parents if parent.exists() and not parent.is_dir()), None)
    if file is not None:
        raise argparse.ArgumentTypeError(f"{text}: {file} is a file, not a folder; give a path in a folder")
    return text


def thinking_steps(text: str) -> int:
    """--thinking-steps and --talk-thinking-steps: 0 to MAX_THINKING_STEPS."""
    return integer_in(text, 0, MAX_THINKING_STEPS, "20")


def keep_checkpoints(text: str) -> KeepSchedule:
    """--keep-checkpoints: "every 1h" (m, min, h) or comma-separated ISO times, as a KeepSchedule."""
    words = text.strip().split()
    if len(words) == 2 and words[0] == "every":
        number, unit = words[1].rstrip("minh"), words[1][len(words[1].rstrip("minh")) :]
        scale = {"h": 60, "m": 1, "min": 1}.get(unit)
        try:
            minutes = float(number) * scale if scale else 0.0
        except ValueError:
            minutes = 0.0
        if not 0 < minutes <= MAX_DAYS * 24 * 60:
            raise argparse.ArgumentTypeError(f"{text!r}: give an interval such as 'every 1h' or 'every 30m'")
        return KeepSchedule(every_minutes=minutes)
    try:
        times = tuple(sorted(until(part) for part in text.split(",") if part.strip()))
    except argparse.ArgumentTypeError as error:
        if "time zone" in str(error):
            raise
        raise argparse.ArgumentTypeError(
            f"{text!r}: give 'every 1h' (or 30m, 2h) or comma-separated times, e.g. 2023-02-13T08:00,2023-02-13T12:00"
        ) from None
    if not times:
        raise argparse.ArgumentTypeError("give 'every 1h' or at least one time, e.g. 2023-02-13T08:00")
    return KeepSchedule(times=times)


def statement(text: str) -> str:
    """A whisper: non-empty UTF-8 text of at most MAX_STATEMENT_CHARS characters, without control characters."""
    return _text(text, "statement")


def change_text(text: str) -> str:
    """Each word of a fork's --whisper AGENT STATEMENT, --set ADDRESS STATE and --broadcast TEXT: a statement's rules.

    `run.py whisper` and `run.py set` refuse an empty, over-long or control-character text in one line; the fork's
    change options took the same texts unchecked, into a traceback from the intervention's record.
    """
    return _text(text, "change's text")


def persona(text: str) -> str:
    """The persona of `interview --as`: who the agent believes it faces, the same rules as a statement's."""
    return _text(text, "persona")


def question(text: str) -> str:
    """An interview question: the same rules as a whisper's statement."""
    return _text(text, "question")


def writable_file(text: str) -> str:
    """--log-prompts: a file the run can write, checked before its run folder is made.

    A folder, a file or folder that cannot be written, a path under a regular file or a full device used to surface as
    a traceback once the town had loaded, with the run folder already made. Missing folders are fine: the writer
    makes them.
    """
    if not visible(text):
        raise argparse.ArgumentTypeError("the file name is empty; give a path, e.g. prompts.jsonl")
    path = Path(path_text(text))
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give a file in it, e.g. {path / 'prompts.jsonl'}")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text}: the file is read-only; give another file or make it writable")
    existing = next(parent for parent in [path.absolute(), *path.absolute().parents] if parent.exists())
    if existing != path.absolute() and not existing.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: {existing} is a file, not a folder; give a path in a folder")
    if existing.is_dir() and not os.access(existing, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text}: the folder {existing} is read-only; give a path in a writable one")
    try:
        free = shutil.disk_usage(existing).free
    except OSError:
        free = 1
    if free == 0:
        raise argparse.ArgumentTypeError(f"{text}: the device holding {existing} is full; free space or give another")
    return text
