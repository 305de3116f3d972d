"""The evaluation's requests: the ranking parses back to positions, the offline judge and fact checker's rules."""

import pytest

from agents.language.offline import offline_answer
from agents.language.request import AnswerError
from agents.language.requests.evaluation import FactCheckRequest, RankRequest

PARTY = "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm"


def test_a_ranking_maps_labels_back_to_the_answers_positions():
    request = RankRequest("Who are you?", "Isabella", ("first", "second", "third"))
    assert request.labels == ("A", "B", "C")
    assert request.parse('{"ranking": ["C", "a", "Answer B"]}') == (2, 0, 1)
    with pytest.raises(AnswerError, match="exactly once"):
        request.parse('{"ranking": ["A", "A", "B"]}')
    assert request.fallback() == (0, 1, 2)


def test_the_offline_judge_ranks_specific_answers_first():
    answers = ("I don't know.", "I am Isabella Rodriguez and I run Hobbs Cafe, open 8 am to 8 pm.", "Hmm, a cafe?")
    request = RankRequest("Introduce yourself", "Isabella Rodriguez, owner of Hobbs Cafe", answers)
    assert request.parse(offline_answer(request, seed=0))[0] == 1


@pytest.mark.parametrize(
    ("answer", "shows"),
    [
        ("Yes! Isabella is hosting a Valentine's Day party at Hobbs Cafe on February 14.", True),
        ("I don't know anything about a Valentine's Day party at Hobbs Cafe.", False),
        ("I have been busy studying physics all week.", False),
    ],
    ids=["states-it", "denies-it", "unrelated"],
)
def test_the_offline_fact_check_reads_the_answer_only(answer, shows):
    request = FactCheckRequest("Did you know there is a party?", answer, PARTY)
    assert request.parse(offline_answer(request, seed=0)) is shows
