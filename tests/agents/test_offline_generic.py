"""The offline mind follows generic rules: news worded any other way scores and travels like the tracked facts."""

from dataclasses import replace

import pytest

from agents.language.offline.news import news_in
from agents.language.offline.salience import importance_of
from agents.language.offline.talk import line, summarize
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest

from .personas import NOON, identity

SAME_SHAPE = [
    ("Isabella invites everyone to her Valentine's Day party tomorrow",
     "Carmen invites everyone to her bakery opening tomorrow"),
    ("Sam Moore is running for mayor in the local election",
     "Jane Ortiz is running for the school board this spring"),
    ("there is a party at the cafe", "there is a concert at the park"),
    ("Maria Lopez is reading about the election for mayor", "Maria Lopez is reading about the weather for sailing"),
    ("Klaus Mueller told me about Valentine's Day", "Klaus Mueller told me about his research paper"),
]  # fmt: skip


@pytest.mark.parametrize(("tracked", "other"), SAME_SHAPE, ids=["invitation", "candidacy", "gathering",
                                                                "routine", "talk"])  # fmt: skip
def test_news_of_the_same_shape_scores_the_same_whatever_its_words(tracked, other):
    assert importance_of(tracked) == importance_of(other)


def test_the_rules_order_poignant_over_invitations_over_routine():
    assert importance_of("the bed is idle") == 1
    assert importance_of("brushing teeth") < importance_of("Ayesha Khan is moving to Boston next week")
    assert importance_of("Ayesha Khan is moving to Boston next week") < importance_of("join us for dinner on Friday")
    assert importance_of("join us for dinner on Friday") < importance_of("her grandmother died last night")
    assert importance_of("I love my work at the cafe") < importance_of("Maria Lopez is in love with Klaus Mueller")


def test_the_talker_passes_on_news_from_its_status_before_routine_memories():
    isabella = identity("Isabella Rodriguez")
    news = "The library is starting a free pottery class next Saturday, and everyone should sign up."
    speaker = replace(isabella, currently=f"Isabella runs Hobbs Cafe. {news}")
    memories = ("the coffee machine is being used by Isabella Rodriguez", "Maria Lopez is studying physics")
    request = ConversationLineRequest(speaker, "Maria Lopez", "Hobbs Cafe", NOON, memories, ())
    opening = line(request, seed=0)["line"]
    assert "pottery class" in opening
    assert "party" not in opening.lower()


def test_object_use_by_someone_scores_like_their_routine():
    assert importance_of("the kitchen sink is being used by Abigail Chen for eating") == importance_of(
        "Abigail Chen is having lunch (eating)"
    )
    assert importance_of("the table is being used by Sam Moore for a party with Jane Moreno") > importance_of(
        "the table is being used by Sam Moore for eating"
    )


def test_news_is_passed_on_without_who_told_whom():
    memory = "About Eddy Lin: Eddy Lin told me: the library opens a pottery class on Friday; Eddy Lin is cooking"
    assert news_in(memory) == ["the library opens a pottery class on Friday", "Eddy Lin is cooking"]
    chat = "conversation with Maria Lopez: Maria Lopez and Klaus Mueller talked about the new bakery downtown"
    assert news_in(chat) == ["the new bakery downtown"]
    assert all(len(piece) <= 160 for piece in news_in("word " * 100))


def test_a_line_passes_on_one_piece_of_news_and_the_listener_keeps_each_line_apart():
    isabella = identity("Isabella Rodriguez")
    told = "Carmen Ortiz told me: Giorgio Rossi is moving to Boston next week; the piano is idle"
    request = ConversationLineRequest(isabella, "Maria Lopez", "Hobbs Cafe", NOON, (told,), ())
    opening = line(request, seed=0)["line"]
    assert opening == "Hi Maria! Giorgio Rossi is moving to Boston next week"
    lines = (
        ("Isabella Rodriguez", opening),
        ("Maria Lopez", "Hi! I am well"),
        ("Isabella Rodriguez", "the fair is on"),
    )
    summary = summarize(ConversationSummaryRequest("Isabella Rodriguez", "Maria Lopez", lines), seed=0)
    assert summary["takeaways"]["Maria Lopez"] == (
        "Isabella Rodriguez told me: Giorgio Rossi is moving to Boston next week; the fair is on"
    )
