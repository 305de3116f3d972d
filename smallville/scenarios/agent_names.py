"""An agent named on the command line, matched to the town's own spelling: case and spacing do not matter.

"isabella  rodriguez" is Isabella Rodriguez; a name that matches no one is refused with the closest names offered
("did you mean ...?"), so a typo costs one glance instead of reading the list of 25.
"""

import difflib


class UnknownAgent(ValueError):
    """A name that is no agent of the town; the message suggests the closest ones."""


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def resolve_agent(name: str, names: list[str]) -> str:
    """The town's spelling of `name` (matched without regard to case or extra spaces).

    Raises:
        UnknownAgent: Naming the closest agents, or all of them when none is close.
    """
    by_key = {_key(known): known for known in names}
    if _key(name) in by_key:
        return by_key[_key(name)]
    close = difflib.get_close_matches(_key(name), list(by_key), n=3, cutoff=0.6)
    if close:
        suggestion = " or ".join(repr(by_key[key]) for key in close)
        raise UnknownAgent(f"no agent named {name!r} in this run; did you mean {suggestion}?")
    raise UnknownAgent(f"no agent named {name!r} in this run; choose from: {', '.join(names)}")
