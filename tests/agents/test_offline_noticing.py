"""The offline mind on an object in an unusual state: it sees to it in its own places, whatever the state says."""

import json

import pytest

from agents.language.offline import offline_answer
from agents.language.requests import ObjectReactionRequest

from .personas import NOON, identity

ISABELLA = identity("Isabella Rodriguez")  # lives in "the Ville:Isabella Rodriguez's apartment:main room"
HOME_SHELF = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
CAFE_STOVE = "the Ville:Hobbs Cafe:cafe:cooking area"
COUNTER = "the Ville:Hobbs Cafe:cafe:behind the cafe counter"
PARK = "the Ville:Johnson Park:park:park garden"

CASES = {
    "at home, though busy elsewhere in it": (
        HOME_SHELF,
        "the Ville:Isabella Rodriguez's apartment:bathroom:shower",
        True,
    ),
    "where it is working now": (CAFE_STOVE, COUNTER, True),
    "passing through on the way elsewhere": (CAFE_STOVE, PARK, False),
}


def ask(address: str, own_place: str, state: str = "burning") -> dict:
    request = ObjectReactionRequest(ISABELLA, NOON, "doing things", own_place, address, state)
    answer = json.loads(offline_answer(request, seed=0))
    assert request.parse(json.dumps(answer)).react == answer["react"]
    return answer


@pytest.mark.parametrize("address, own_place, reacts", CASES.values(), ids=list(CASES))
def test_it_sees_to_an_object_in_its_own_places_only(address, own_place, reacts):
    answer = ask(address, own_place)
    assert answer["react"] is reacts
    if reacts:
        assert answer["activity"] == f"seeing to the {address.rsplit(':', 1)[-1]}, which is burning"


@pytest.mark.parametrize("state", ["burning", "painted blue", "humming a tune", "flooded"])
def test_the_words_of_the_state_never_decide(state):
    assert ask(CAFE_STOVE, COUNTER, state)["react"] is True
    assert ask(CAFE_STOVE, PARK, state)["react"] is False
