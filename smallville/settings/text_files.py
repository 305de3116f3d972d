"""Reading a user's text file (a scenario, a grid, a battery, interventions, a run's config) in one way.

A file saved in another encoding (Latin-1 from an old editor, UTF-16 from some Windows tools) used to surface as a
UnicodeDecodeError traceback from deep inside a reader. Every reader of a user's file goes through `read_text`, which
says in one line which file, where the first bad byte is and what to do. Standard library only: the CLI's option
checks use it before anything heavy loads.
"""

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["TextFileError", "first_field_error", "nested_too_deeply", "read_text"]


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
