"""Importance offline: news of any kind weighs like the tracked facts, and more to the agent it is close to.

The party's seed scored 8 while a fire with injuries, a birth or a shop closing scored 2-3: only a plan told to
others stacked the features. A turn in someone's life or the town's is a feature of its own, from closed classes of
words for events (none of them a party's or an election's), and a person or place the agent's persona names makes a
memory weigh more to that agent than to anyone else.
"""

import json

import pytest

from agents.language.offline import offline_answer
from agents.language.offline.salience import EVENTFUL, importance_of
from agents.language.requests import ImportanceRequest

from .personas import identity

PARTY_SEED = (
    "I am excited to be planning a Valentine's Day party at Hobbs Cafe on February 14th from 5pm and I am eager to "
    "tell everyone to come to the party"
)
PLAIN_NEWS = {
    "fire": "There was a fire at the college dormitory last night and two students were injured",
    "birth": "My sister gave birth to a baby girl this morning",
    "closing": "The pharmacy on the corner is closing for good at the end of the month",
    "death": "My father died last night",
    "job": "Carlos was fired from the factory yesterday",
}
# One pair per class of events, in other words: each pair scores alike.
EVENT_PAIRS = {
    "harm": ("a storm flooded the bakery", "an accident hurt the baker"),
    "life's turns": ("the baker got married", "the baker is retiring"),
    "work and home": ("the baker was laid off", "the baker is moving away"),
}


@pytest.mark.parametrize("kind", sorted(PLAIN_NEWS), ids=sorted(PLAIN_NEWS))
def test_plain_news_weighs_near_the_partys_seed_not_like_routine(kind):
    news = importance_of(PLAIN_NEWS[kind])
    assert news >= 6, news
    assert importance_of(PARTY_SEED) - news <= 2
    assert news > importance_of("Maria Lopez is studying") + 3


@pytest.mark.parametrize("kind", sorted(EVENT_PAIRS), ids=sorted(EVENT_PAIRS))
def test_each_class_of_events_scores_its_paraphrases_alike(kind):
    first, second = EVENT_PAIRS[kind]
    assert importance_of(first) == importance_of(second) > importance_of("the baker sold bread")


def test_no_word_of_the_tracked_facts_is_an_event_word():
    for word in ("party", "Valentine's Day", "hosting", "election", "mayor", "running for", "candidacy", "vote"):
        assert not EVENTFUL.search(f"she is {word} this week".lower()), word


def test_a_memory_naming_someone_the_persona_names_weighs_more_to_that_agent():
    isabella = identity("Isabella Rodriguez")
    persona = isabella.describe()
    assert "Hobbs Cafe" in persona
    news = "the kitchen at Hobbs Cafe burned last night"
    assert importance_of(news, persona) == importance_of(news) + 1
    assert importance_of("the kitchen at Oak Hill College burned last night", persona) == importance_of(news)


def test_the_offline_importance_request_scores_from_the_agents_own_persona():
    isabella = identity("Isabella Rodriguez")
    memories = ("the kitchen at Hobbs Cafe burned last night", "Maria Lopez is studying")
    scores = json.loads(offline_answer(ImportanceRequest(identity=isabella, memories=memories), seed=0))["scores"]
    assert scores == [importance_of(memories[0]) + 1, importance_of(memories[1])]
