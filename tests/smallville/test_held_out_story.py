"""A held-out story: news that is neither the party nor the election, worded otherwise, reaches listeners and plans by
the same rules as the tracked facts (the offline mind has no rule for any story).

tests/data/held_out/picture_book.json: Tamara Taylor reads her new picture book aloud in Johnson Park on February 14,
3-4 pm; the news is only in her own seeded memory (tests/data/held_out/whispers.csv), never in a status. Over a day
and a half offline she tells it in her own voice; her housemate keeps it in the third person, naming her; the next
day both plans hold it at its own time and place (hers as her reading, her listener's as joining her, never as their
own), and the listener is there.

tests/data/held_out/fire.json: news of another kind (a fire with students hurt: no gathering, no invitation, no date
ahead) seeded to Klaus Mueller, not the party's host, in the three-agent town: it travels in day one as the party
does (it used to score 3-4 beside the party's 8, and never left its source).
"""

from datetime import datetime
from functools import cache

import pytest

from smallville.model import SmallvilleModel

SCENARIO = "tests/data/held_out/picture_book.json"
AUTHOR = "Tamara Taylor"


@cache
def town() -> SmallvilleModel:
    model = SmallvilleModel(scenario_name=SCENARIO, embedder="hashing")
    model.run_until(datetime(2023, 2, 14, 16, 0))
    model.close()
    return model


def _plan_items(model, name: str) -> list[str]:
    plans = [node.description for node in model.by_name[name].memories.stream if node.predicate == "plan"]
    return plans[-1].split(": ", 1)[1].split("; ")


@pytest.mark.slow
def test_the_author_tells_it_in_her_own_voice_and_a_listener_keeps_it_naming_her():
    model = town()
    told = [e for e in model.event_log if e["kind"] == "line" and "picture book" in e["text"]]
    assert told and told[0]["agent"] == AUTHOR
    assert "I am reading my new picture book aloud in Johnson Park on February 14" in told[0]["text"]
    listener = told[0]["partner"]
    kept = [n.description for n in model.by_name[listener].memories.stream if "picture book" in n.description]
    assert any(
        text.startswith(f"{AUTHOR} told me: ") and f"{AUTHOR} is reading Tamara's new picture book aloud" in text
        for text in kept
    ), kept
    # nobody else says the author's first-person sentence as their own
    said = [e for e in model.event_log if e["kind"] in ("line", "talk")]
    assert not any(e["agent"] != AUTHOR and "my new picture book" in e["text"] for e in said)


@pytest.mark.slow
def test_the_next_day_plans_hold_it_at_its_own_time_and_place_and_the_listener_comes():
    model = town()
    listener = next(e["partner"] for e in model.event_log if e["kind"] == "line" and "picture book" in e["text"])
    assert "from 3:00 pm to 4:00 pm, reading Tamara's new picture book aloud in Johnson Park" in _plan_items(
        model, AUTHOR
    )
    joining = (
        f"from 3:00 pm to 4:00 pm, joining {AUTHOR}, who is reading Tamara's new picture book aloud in Johnson Park"
    )
    assert joining in _plan_items(model, listener)
    assert {AUTHOR, listener} <= set(model.social.attendees)
    assert model.social.aware_share("reading") >= 0.5


@pytest.mark.slow
def test_news_of_another_kind_seeded_to_another_agent_spreads_like_the_party():
    model = SmallvilleModel(scenario_name="tests/data/held_out/fire.json", embedder="hashing", rng=0)
    model.run_until(datetime(2023, 2, 13, 23, 59))
    model.close()
    reached = {
        fact: set(known) - {"Isabella Rodriguez", "Klaus Mueller"} for fact, known in model.social.awareness.items()
    }
    assert reached["fire"] and len(reached["fire"]) >= len(reached["party"]) - 1, reached
    told = next(e for e in model.event_log if e["kind"] == "line" and "fire" in e["text"])
    assert told["agent"] == "Klaus Mueller" and "I saw a fire" in told["text"]
    kept = [n.description for n in model.by_name[told["partner"]].memories.stream if "fire" in n.description]
    assert any(text.startswith("Klaus Mueller told me: Klaus Mueller saw a fire") for text in kept), kept
