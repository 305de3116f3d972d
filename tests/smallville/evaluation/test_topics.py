"""Questions generated for any fact are grammatical: the topic is a noun phrase from the fact's own sentence."""

import pytest

from smallville.evaluation.battery import Measures
from smallville.evaluation.topics import NO_TOPIC, fact_topic, fill_topic


@pytest.mark.parametrize(
    ("fact", "topic"),
    [
        ("Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm",
         "a Valentine's Day party"),
        ("Latoya Williams is holding a bake sale at the Willows Market on Saturday", "a bake sale"),
        ("A fire at the Oak Hill College library injured two students on Tuesday",
         "a fire at the Oak Hill College library"),
        ("Harvey Oak Supply Store is closing at the end of the month", "Harvey Oak Supply Store"),
        ("Jane Moreno gave birth to a baby girl on February 12", "a baby girl"),
        ("Tamara Taylor is reading her new picture book aloud in Johnson Park on February 14, 3-4 pm",
         "the new picture book"),
        ("Klaus Mueller is moving to Berlin", NO_TOPIC),
    ],
    ids=["party", "bake-sale", "fire", "shop-closing", "birth", "reading", "no-phrase"],
)  # fmt: skip
def test_the_topic_is_a_noun_phrase_of_the_fact_that_never_names_who(fact, topic):
    assert fact_topic(fact) == topic
    question = fill_topic(Measures().fact_question, fact_topic(fact))
    assert question == f"Have you heard anything lately about {topic}? Tell me what you know."


def test_a_battery_written_for_a_bare_noun_takes_the_phrase_whole():
    assert fill_topic("Heard about a {topic}?", "a bake sale") == "Heard about a bake sale?"
    assert fill_topic("Heard about an {topic}?", "the poetry prize") == "Heard about the poetry prize?"
