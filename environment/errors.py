"""The errors of the world layer, each with a message that says what is wrong and how to fix it."""


class MapError(ValueError):
    """A map file that is missing or malformed: the message names the file, the row or cell, and the problem."""


class UnknownAddress(KeyError):
    """An address that is not in the world tree."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown address"


class Unreachable(ValueError):
    """No walkable path joins two places."""
