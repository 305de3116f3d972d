"""A player's moves and lines as interventions: what each kind must carry, refused in one line otherwise."""

import pytest

from smallville.interventions.records import InterventionError, Timeline, parse_interventions

AT = "2023-02-13T08:00:00"


def entry(**fields) -> dict:
    return {"time": AT, **fields}


GOOD = [
    entry(kind="join", player="Alex Park", target="the Ville:Hobbs Cafe:cafe", text="a reporter", tile=[77, 22]),
    entry(kind="move", player="Alex Park", target="the Ville:Johnson Park", text="Johnson Park", tile=[40, 60]),
    entry(kind="say", player="Alex Park", target="Isabella Rodriguez", text="Hello!"),
    entry(kind="leave", player="Alex Park", text="leaves the town"),
]


def test_a_visit_round_trips_through_a_checkpoint():
    timeline = Timeline(parse_interventions(GOOD, "visit"))
    again = Timeline()
    again.set_state(timeline.get_state())
    assert again.items == timeline.items
    assert [item.describe() for item in again.items] == [
        "2023-02-13 08:00 Alex Park joins the town at the Ville:Hobbs Cafe:cafe: a reporter",
        "2023-02-13 08:00 Alex Park goes to the Ville:Johnson Park",
        "2023-02-13 08:00 Alex Park to Isabella Rodriguez: Hello!",
        "2023-02-13 08:00 Alex Park leaves the town",
    ]


BAD = [
    (entry(kind="say", target="Isabella Rodriguez", text="Hi"), "a player's name goes with the kinds"),
    (entry(kind="whisper", player="Alex", target="Klaus Mueller", text="Hi"), "a player's name goes with the kinds"),
    (
        entry(kind="join", player="Alex", target="the Ville:Hobbs Cafe", text="me"),
        "join and move give the player's tile",
    ),
    (entry(kind="say", player="Alex", text="Hi"), "needs the agent it is said to"),
    (entry(kind="say", player="Alex: admin", target="Klaus Mueller", text="Hi"), "plain words"),
    (entry(kind="say", player="Alex", target="Klaus Mueller", text="Hi\x1b[2J"), "control characters"),
    (entry(kind="say", player="Alex", target="Klaus Mueller", text="   "), "is empty"),
]


BAD_IDS = ["no player", "player on a whisper", "no tile", "no agent", "colon in name", "control text", "empty text"]


@pytest.mark.parametrize(("data", "message"), BAD, ids=BAD_IDS)
def test_a_wrong_entry_is_one_line_naming_it(data, message):
    with pytest.raises(InterventionError, match=message) as raised:
        parse_interventions([data], "visit")
    assert "\n" not in str(raised.value) and "visit: intervention 1" in str(raised.value)
