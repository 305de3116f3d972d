"""Reading a user's text file (a scenario, a grid, a battery, interventions, a run's config) in one way.

A file saved in another encoding (Latin-1 from an old editor, UTF-16 from some Windows tools) used to surface as a
UnicodeDecodeError traceback from deep inside a reader. Every reader of a user's file goes through `read_text`, which
says in one line which file, where the first bad byte is and what to do. Standard library only: the CLI's option
checks use it before anything heavy loads.
"""

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["TextFileError", "first_field_error", "nested_too_deeply", "read_data", "read_text"]


class TextFileError(ValueError):
    """A user's file that cannot be read as text; the message names the file, the fault and the fix."""


def read_text(path: Path | str, what: str = "file") -> str:
    """The file's text, decoded as UTF-8 (a leading byte-order mark is dropped).

    Args:
        path: The file.
        what: What the file is, for the message ("grid", "battery").

    Raises:
        TextFileError: If the file cannot be read or is not UTF-8 text.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise TextFileError(f"{path}: is a folder, not a {what} file; give the file") from None
    except OSError as error:
        raise TextFileError(f"{path}: cannot read the {what} ({error.strerror}); check the path") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TextFileError(
            f"{path}: not UTF-8 text (byte 0x{data[error.start]:02x} on line {line}); save the {what} as UTF-8"
        ) from None


# Each language a user's file is written in: its parser and the error the parser raises on bad syntax.
_PARSERS: dict[str, tuple[Callable[[str], Any], type[ValueError]]] = {
    "TOML": (tomllib.loads, tomllib.TOMLDecodeError),
    "JSON": (json.loads, json.JSONDecodeError),
}


def read_data(path: Path | str, what: str, fault: type[Exception], language: Literal["TOML", "JSON"]) -> Any:
    """The file's data, parsed but not yet validated; every fault one `fault` line naming the file and the fix.

    The grid, battery and scenario readers share it, so an unreadable, non-UTF-8, malformed or too deeply nested
    file is refused in the same words whichever of them reads it.

    Args:
        path: The file.
        what: What the file is, for the message ("grid", "battery").
        fault: The reader's own error type, raised with the one line.
        language: The file's syntax.
    """
    parse, syntax_error = _PARSERS[language]
    try:
        return parse(read_text(path, what))
    except TextFileError as error:
        raise fault(str(error)) from None
    except syntax_error as error:
        raise fault(f"{path}: not valid {language} ({error}); fix the syntax") from error
    except RecursionError:
        raise fault(nested_too_deeply(path, what)) from None


def first_field_error(error: "ValidationError") -> str:
    """The first thing wrong in a file's contents, in the one line its reader shows: "field 'agents.0': why"."""
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "(top level)"
    return f"field {field!r}: {first['msg']}"


def nested_too_deeply(path: Path | str, what: str = "file") -> str:
    """The one line for a file whose lists or tables nest deeper than a parser recurses (Python's RecursionError).

    A scenario of `[[[[...` ten thousand deep is valid JSON that no reader can hold; it used to end in a traceback.
    """
    return f"{path}: nested too deeply to read (lists or tables inside each other); flatten the {what}"
