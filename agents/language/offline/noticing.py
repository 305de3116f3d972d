"""The offline mind on noticing an object in an unusual state: one generic rule, read from the request's fields.

An agent sees to an object it uses: in its home's sector or in the arena of what it is doing now; anyone passing by
goes on. The state is never read for a decision (a stove "burning" and a piano "painted blue" alike): no word list
decides. The activity names the object and its state, and takes a fixed TENDING_MINUTES.
"""

from agents.language.requests.noticing import ObjectReactionRequest

# How long the offline mind spends seeing to an object (minutes): a short errand, as a wait is.
TENDING_MINUTES = 10
# A state longer than this (characters) is left out of the activity's words, which stay a short phrase.
LONGEST_STATE_SHOWN = 60


def is_users_place(request: ObjectReactionRequest) -> bool:
    """Whether the agent uses the object's place: its home sector, or the arena of what it is doing now."""
    _, sector, _, _ = request.object_address.split(":")
    home = request.identity.living_area.split(":")
    at_home = len(home) > 1 and home[1] == sector
    doing_here = request.own_place.startswith(request.object_address.rsplit(":", 1)[0])
    return at_home or doing_here


def react_to_object(request: ObjectReactionRequest, seed: int) -> dict:
    """See to it when it is in the agent's own place (see the module's docstring), else go on."""
    del seed
    if not is_users_place(request):
        return {"react": False, "reason": "it is not mine to deal with", "activity": "", "minutes": TENDING_MINUTES}
    state = request.state.strip().rstrip(".")
    which = f", which is {state}" if len(state) <= LONGEST_STATE_SHOWN else ""
    activity = f"seeing to the {request.object_name}{which}"
    return {"react": True, "reason": "it is in my own place", "activity": activity, "minutes": TENDING_MINUTES}
