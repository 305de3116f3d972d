"""Offline reflection stays bounded: insights citing insights quote their gist, not their whole text."""

from agents.language.offline.news import LONGEST_NEWS
from agents.language.offline.thinking import insights, questions
from agents.language.requests import InsightsRequest, ReflectionQuestionsRequest

from .personas import identity

KLAUS = identity("Klaus Mueller")


def test_insights_built_on_insights_do_not_grow():
    memories = [(0, "Maria Lopez is studying physics at the library"), (1, "Maria Lopez said she loves streaming")]
    for depth in range(12):
        request = InsightsRequest(
            KLAUS, (("What do I know about Maria Lopez?", tuple(i for i, _ in memories)),), tuple(memories)
        )
        (found, *_) = insights(request, seed=0)["insights"]
        memories = [(2 * depth + 2, found["insight"]), (2 * depth + 3, found["insight"])]
    assert found["insight"].startswith("About Maria Lopez: ")
    assert len(found["insight"]) <= len("About Maria Lopez: ") + LONGEST_NEWS
    assert "About Maria Lopez: About" not in found["insight"]


def test_an_insight_states_its_group_s_weightiest_news_in_one_sentence():
    memories = [
        (0, "Maria Lopez is studying physics at the library"),
        (1, "Klaus Mueller told me: Maria Lopez is moving to Boston next week; Maria Lopez is eating"),
    ]
    request = InsightsRequest(KLAUS, (("What do I know about Maria Lopez?", (0, 1)),), tuple(memories))
    (found,) = insights(request, seed=0)["insights"]
    assert found["insight"] == "About Maria Lopez: Maria Lopez is moving to Boston next week"
    assert found["evidence"] == [0, 1]


def test_reflection_questions_ask_about_people_not_insight_prefixes():
    statements = ("About Maria Lopez: Maria Lopez is studying", "About Maria Lopez: Maria Lopez said hi")
    asked = questions(ReflectionQuestionsRequest(KLAUS, statements, 1), seed=0)["questions"]
    assert asked == ["What do I know about Maria Lopez, and what is my relationship with them?"]
