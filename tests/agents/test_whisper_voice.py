"""A memory handed to an agent, by any door, is kept in its own voice, and retold of it with a verb that agrees.

The `whisper` command, the page and a scenario's interventions stored the statement word for word: "You are excited
to be holding a bake sale" stayed in the second person, the agent retold it as if of its listener, and a listener
kept "Latoya are excited ...".
"""

import re

import pytest

from agents import load_whispers
from agents.inner_voice import in_own_voice
from agents.language.english.voice import own_voice
from agents.language.offline.voice import third_person
from agents.persona import to_first_person
from smallville.scenarios.scenario import DATA_DIR

ME = "Latoya Williams"
WHISPERS = {
    "second person": ("You are excited to be holding a bake sale", "I am excited to be holding a bake sale"),
    "possessive": ("Your brother is visiting you on Friday", "My brother is visiting me on Friday"),
    "named": ("Latoya Williams is holding a bake sale on Saturday", "I am holding a bake sale on Saturday"),
    "first name": (
        "Latoya is excited about the fair and Latoya's brother is coming",
        "I am excited about the fair and my brother is coming",
    ),
    "addressed": ("Latoya, you are invited to the fair", "I am invited to the fair"),
    "own voice already": ("I am going to run for mayor", "I am going to run for mayor"),
    "no person": ("The pharmacy is closing for good", "The pharmacy is closing for good"),
}


@pytest.mark.parametrize("given, kept", WHISPERS.values(), ids=list(WHISPERS))
def test_a_whisper_is_kept_in_the_agents_own_voice(given, kept):
    assert in_own_voice(given, ME) == kept


def test_another_persons_namesake_stays_named():
    assert in_own_voice("Latoya Brown is holding a bake sale", ME) == "Latoya Brown is holding a bake sale"


def test_you_retold_by_a_third_party_takes_a_verb_that_agrees_with_the_name():
    said = "You are excited to be holding a bake sale, and you were at the fair where you like the pies"
    retold = third_person(said, "Hailey Johnson", ME, kept_by_listener=False)
    assert retold == (
        "Latoya is excited to be holding a bake sale, and Latoya was at the fair where Latoya likes the pies"
    )


def _in_own_voice_everywhere(statement, me):
    """in_own_voice with its name's patterns tried on every statement (before they were kept for the names in it)."""
    first = me.split(maxsplit=1)[0]
    text = re.sub(rf"^(?:{re.escape(me)}|{re.escape(first)}),\s+", "", statement.strip())
    return own_voice(to_first_person(text), me)


def test_only_statements_that_name_the_agent_change_when_the_name_patterns_are_skipped():
    whispers = {}
    for name in ("the_ville/agent_history_init_n25.csv", "towns/gull_harbor/whispers.csv"):
        whispers.update(load_whispers(DATA_DIR / name))
    people = list(whispers)
    statements = [text for texts in whispers.values() for text in texts]
    statements += [given for given, _ in WHISPERS.values()]
    statements += [f"{person}, {text}" for person, text in zip(people, statements, strict=False)]
    statements += [f"  {person.split()[0]} and Maria Lopez are friends  " for person in people]
    for me in [*people[::4], ME]:  # every statement naming one of them, or another, or no one
        for statement in statements:
            assert in_own_voice(statement, me) == _in_own_voice_everywhere(statement, me), (me, statement)
