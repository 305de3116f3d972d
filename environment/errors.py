"""The errors of the world layer, each with a message that says what is wrong and how to fix it."""

from pathlib import Path


class MapError(ValueError):
    """A map file that is missing or malformed.

    The message names the file, the row or cell, what is wrong and how to fix it; the same parts are kept as
    attributes so a caller can show them its own way.

    Attributes:
        file: The file at fault.
        row: Where in it: "row 3", "cell 141 (x=1, y=1)", or "" when the whole file is at fault.
        problem: What is wrong.
        fix: How to fix it.
    """

    def __init__(self, file: Path | str, row: str, problem: str, fix: str):
        self.file, self.row, self.problem, self.fix = Path(file), row, problem, fix
        where = f"{self.file}: {row}: " if row else f"{self.file}: "
        super().__init__(f"{where}{problem}; {fix}")


class UnknownAddress(KeyError):
    """An address that is not in the world tree (a KeyError, with a readable message instead of a quoted key)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown address"


class Unreachable(ValueError):
    """No walkable path joins two places."""
