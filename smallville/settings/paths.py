"""Checks of the folders a command will write, made before it writes anything.

Standard library only, like option_types: a door checks its paths before any heavy import or any folder is made.
"""

from pathlib import Path

__all__ = ["check_outside"]


def check_outside(out: str | Path, source: str | Path, flag: str = "--out") -> None:
    """A new folder that is not inside the run it comes from (a fork's --out inside its source).

    A fork written inside its source became part of the folder it copies, and the source's own files (its report,
    a compare) then mixed with the fork's; it was accepted without a word.

    Raises:
        ValueError: One line naming the flag and giving a folder beside the source instead.
    """
    new, old = Path(out).resolve(), Path(source).resolve()
    if new == old or old in new.parents:
        raise ValueError(
            f"{flag} {out}: inside the run it comes from ({source}); give a folder outside it, e.g. "
            f"{Path(source).parent / (Path(source).name + '-fork')}"
        )
