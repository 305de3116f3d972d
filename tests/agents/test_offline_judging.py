"""The evaluation's requests and the offline judge: rankings with ties, fact checks and groundings read as a reader
would (negation scope, hedges, curiosity, idioms, wrong details), and interviews answered from the persona."""

from datetime import datetime

import pytest

from agents.identity import Identity
from agents.language.offline import offline_answer
from agents.language.request import AnswerError
from agents.language.requests import InterviewRequest
from agents.language.requests.evaluation import FactCheckRequest, GroundRequest, RankRequest

PARTY = "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm"
ISABELLA = Identity(
    name="Isabella Rodriguez", age=34, innate="friendly, outgoing",
    learned="Isabella Rodriguez is a cafe owner of Hobbs Cafe who loves to make people feel welcome.",
    currently="Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm.",
    lifestyle="goes to bed around 11pm, wakes up around 6am", living_area="the Ville:Isabella's apartment",
)  # fmt: skip


def test_a_ranking_maps_label_groups_back_to_positions_and_ties_share_a_group():
    request = RankRequest("Who are you?", "Isabella", ("first", "second", "third"))
    assert request.labels == ("A", "B", "C")
    assert request.parse('{"ranking": [["C"], ["a", "Answer B"]]}') == ((2,), (0, 1))
    assert request.parse('{"ranking": ["C", "A", "B"]}') == ((2,), (0,), (1,))  # a flat ranking: no ties
    with pytest.raises(AnswerError, match="exactly once"):
        request.parse('{"ranking": [["A", "A"], ["B"]]}')
    assert request.fallback() == ((0, 1, 2),)  # no verdict is a draw, never the shown order
    schema = request.answer_schema()
    assert schema["properties"]["ranking"]["items"]["items"]["enum"] == ["A", "B", "C"]


def test_the_offline_judge_ranks_specific_answers_first_and_ties_equal_ones():
    answers = ("I don't know.", "I am Isabella Rodriguez and I run Hobbs Cafe, open 8 am to 8 pm.", "I don't know.")
    request = RankRequest("Introduce yourself", "Isabella Rodriguez, owner of Hobbs Cafe", answers)
    assert request.parse(offline_answer(request, seed=0)) == ((1,), (0, 2))


def test_length_cannot_buy_the_offline_judge_a_better_place():
    """Padding an answer with sentences that say nothing specific, or saying it twice, never lifts it."""
    question, context = "What are you looking forward to?", "Isabella Rodriguez, owner of Hobbs Cafe"
    said = "I am looking forward to the Valentine's Day party at Hobbs Cafe on February 14."
    padded = f"{said} It is nice. I like it a lot. Things are good. It will be fun."
    twice = f"{said} {said}"
    request = RankRequest(question, context, (padded, said, twice))
    assert request.parse(offline_answer(request, seed=0)) == ((1, 2), (0,))
    short = RankRequest(question, context, ("I am looking forward to the party at Hobbs Cafe.", said))
    assert len(short.parse(offline_answer(short, seed=0))) == 1  # a detail more is no better: a draw


@pytest.mark.parametrize(
    ("answer", "shows"),
    [
        ("Yes! Isabella is hosting a Valentine's Day party at Hobbs Cafe on February 14.", True),
        ("I heard Isabella is having people over at the cafe for Valentine's Day.", True),
        ("I can't wait for Isabella's Valentine's party at Hobbs Cafe!", True),
        ("Isabella told me she is not hosting a Valentine's party this year.", False),
        ("I don't know anything about a Valentine's Day party at Hobbs Cafe.", False),
        ("A Valentine's party? I wonder who would host one. Maybe Isabella.", False),
        ("Isabella's Valentine's party is at The Rose and Crown Pub on the 14th.", False),
        ("Isabella is having a Valentine's party at Hobbs Cafe on February 20.", False),
        ("Carmen Ortiz is hosting the Valentine's Day party at Hobbs Cafe.", False),
        ("I have been busy studying physics all week.", False),
    ],
    ids=["states-it", "paraphrase", "idiom", "negated", "denies-knowing", "curiosity-and-guess", "wrong-place",
         "wrong-date", "wrong-person", "unrelated"],
)  # fmt: skip
def test_the_offline_fact_check_reads_the_answer_as_a_reader_would(answer, shows):
    request = FactCheckRequest("Did you know there is a party?", answer, PARTY, "Maria Lopez")
    assert request.parse(offline_answer(request, seed=0)) is shows


def test_the_host_speaking_of_herself_shows_her_own_fact():
    request = FactCheckRequest("Any news?", "Let me think. I am hosting a Valentine's Day party at Hobbs Cafe.",
                               PARTY, "Isabella Rodriguez")  # fmt: skip
    assert request.parse(offline_answer(request, seed=0)) is True
    aside = FactCheckRequest("Any news?", "Let me think. Ryan is at a Valentine's Day party at Hobbs Cafe.",
                             PARTY, "Ryan Park")  # fmt: skip
    assert request.parse(offline_answer(aside, seed=0)) is False  # "me" in "let me think" is not the host


@pytest.mark.parametrize(
    ("answer", "shows"),
    [
        ("Yes, Wolfgang is my classmate, and we live in the same dorm.", True),
        ("Wolfgang? We talked about our literature class this morning.", True),
        ("I've seen Wolfgang Schulz jogging around campus, but I don't really know him.", False),
        ("Wolfgang Schulz is having lunch at Hobbs Cafe.", False),
        ("I know Maria Lopez; she's my friend from class.", False),
        ("Maria Lopez is talking with Wolfgang Schulz", False),
        ("About Wolfgang Schulz: I have a secret crush on Maria Lopez", False),
        ("Klaus Mueller told me: Wolfgang Schulz knows of Maria Lopez who lives next block", False),
    ],
    ids=[
        "identity",
        "talked",
        "seen-only",
        "sighting",
        "someone-else",
        "seen-talking",
        "a name-s-not-a-verb",
        "whom-he-knows",
    ],
)
def test_knowing_who_someone_is_is_not_having_seen_them(answer, shows):
    claim = "Ayesha Khan knows who Wolfgang Schulz is"
    request = FactCheckRequest("Do you know Wolfgang Schulz?", answer, claim, "Ayesha Khan")
    assert request.parse(offline_answer(request, seed=0)) is shows


def test_grounding_lists_the_memories_that_state_the_fact():
    memories = (
        "Isabella Rodriguez is decorating the counter at Hobbs Cafe",
        "conversation with Isabella Rodriguez: Isabella invited me to her Valentine's Day party at Hobbs Cafe",
        "Klaus Mueller asked me if I had heard about any party this week",
        "Klaus Mueller mentioned that Isabella is organising a get-together for Valentine's Day at her cafe",
    )
    request = GroundRequest("Did you know?", "Yes, Isabella's party.", PARTY, "Maria Lopez", memories)
    assert request.parse(offline_answer(request, seed=0)) == (1, 3)
    assert request.parse('{"supported_by": []}') == ()
    with pytest.raises(AnswerError, match="not a memory's number"):
        request.parse('{"supported_by": [5]}')
    schema = request.answer_schema()
    assert schema["properties"]["supported_by"]["items"] == {"type": "integer", "minimum": 1, "maximum": 4}


def test_with_every_memory_hidden_the_interview_answers_from_the_persona():
    now = datetime(2023, 2, 13, 12)
    plans = InterviewRequest(ISABELLA, now, "Are you planning anything for Valentine's Day?", ())
    answer = plans.parse(offline_answer(plans, seed=0))
    assert answer.startswith("I am planning a Valentine's Day party at Hobbs Cafe")
    hello = InterviewRequest(ISABELLA, now, "Introduce yourself, please.", ())
    assert plans.parse(offline_answer(hello, seed=0)).startswith("I'm Isabella Rodriguez, 34. I am a cafe owner")
    other = InterviewRequest(ISABELLA, now, "What is the tallest mountain?", ())
    assert plans.parse(offline_answer(other, seed=0)) == "I don't really know anything about that."


def test_asked_about_someone_the_interview_restates_what_it_holds_and_only_a_talk_is_knowing_them():
    now = datetime(2023, 2, 13, 12)
    question = "Do you know Klaus Mueller?"
    seen = InterviewRequest(ISABELLA, now, question, ("Klaus Mueller is having lunch (eating)",))
    met = InterviewRequest(ISABELLA, now, question, ("conversation with Klaus Mueller: we talked about his research",))
    said = {name: request.parse(offline_answer(request, seed=0)) for name, request in (("seen", seen), ("met", met))}
    assert said == {
        "seen": "Let me think. Klaus Mueller is having lunch (eating).",
        "met": "Let me think. I talked with Klaus Mueller: we talked about his research.",
    }
    for name, knows in (("seen", False), ("met", True)):
        check = FactCheckRequest(
            question, said[name], "Isabella Rodriguez knows who Klaus Mueller is", "Isabella Rodriguez"
        )
        assert check.parse(offline_answer(check, seed=0)) is knows
    stranger = InterviewRequest(ISABELLA, now, question, ("Maria Lopez is studying (reading)",))
    assert stranger.parse(offline_answer(stranger, seed=0)) == "I don't think I know Klaus Mueller."


def test_the_interview_says_one_thing_once_and_each_sentence_as_a_sentence():
    """A status sentence and the memory seeded from it (a planner's note before it) are one thing, said once."""
    me = Identity("Isabella Rodriguez", 34, innate="", learned="", currently="", lifestyle="", living_area="")
    memories = (
        "In terms of my daily plans, I open the cafe at 8am",
        "I open the cafe at 8am",
        "the cafe counter is being used by Isabella Rodriguez for opening",
    )
    asked = InterviewRequest(me, datetime(2023, 2, 13, 12), "When do you open the cafe?", memories)
    assert asked.parse(offline_answer(asked, seed=0)) == (
        "Let me think. I open the cafe at 8am. The cafe counter is being used by me for opening."
    )


def test_the_speaker_says_its_own_part_in_the_first_person():
    claim = "Jennifer Moore was at Hobbs Cafe on February 14, 5:00 pm to 7:00 pm for the Valentine's Day party"
    question = "Why were you at Hobbs Cafe on February 14, 5:00 pm to 7:00 pm?"
    quoting = ("Let me think. Isabella is planning a Valentine's Day party at Hobbs Cafe on February 14th from 5pm. "
               "I talked with Sam Moore: Sam Moore and Jennifer Moore talked.")  # fmt: skip
    saying = "I went to Hobbs Cafe for the Valentine's Day party on February 14 at 5 pm."
    for answer, shows in ((quoting, False), (saying, True)):
        request = FactCheckRequest(question, answer, claim, "Jennifer Moore")
        assert request.parse(offline_answer(request, seed=0)) is shows


SAM = Identity(
    name="Sam Moore", age=65, innate="wise, resourceful",
    learned="Sam Moore is a retired navy officer. He is always full of interesting stories and advice.",
    currently="Sam Moore lives with his wife of 40 years, Jennifer Moore, and spends his free time tending the park. "
    "Sam is planning on running for local mayor in the upcoming election.",
    lifestyle="Sam Moore goes to bed around 9pm, awakes up around 5am, eats dinner around 5pm.",
    living_area="the Ville:Moore family's house",
)  # fmt: skip
ARTHUR = Identity(
    name="Arthur Burton", age=42, innate="welcoming",
    learned="Arthur Burton is a bartender. He mostly works at The Rose and Crown Pub.",
    currently="Arthur Burton is running a beloved bar in the town.", lifestyle="Arthur Burton closes the bar at 10pm.",
    living_area="the Ville:Arthur's apartment",
)  # fmt: skip


def test_with_every_memory_hidden_asked_do_you_know_the_persona_answers_what_it_says():
    now = datetime(2023, 2, 13, 12)
    mayor = "Do you know who is running for mayor? Tell me what you know."
    sam = InterviewRequest(SAM, now, mayor, ())
    assert sam.parse(offline_answer(sam, seed=0)) == (
        "I am planning on running for local mayor in the upcoming election."
    )
    arthur = InterviewRequest(ARTHUR, now, mayor, ())  # "running a bar" shares one word: not the topic
    assert arthur.parse(offline_answer(arthur, seed=0)) == "I don't really know anything about that."
    wife = InterviewRequest(SAM, now, "Do you know Jennifer Moore? If so, tell me who they are to you.", ())
    said = wife.parse(offline_answer(wife, seed=0))
    assert said == ("I live with my wife of 40 years, Jennifer Moore, and spend my free time tending the park.")
    check = FactCheckRequest(wife.question, said, "Sam Moore knows who Jennifer Moore is", "Sam Moore")
    assert check.parse(offline_answer(check, seed=0)) is True
    stranger = InterviewRequest(ARTHUR, now, "Who is Jennifer Moore?", ())
    assert stranger.parse(offline_answer(stranger, seed=0)) == "I don't think I know Jennifer Moore."


def test_the_persona_is_said_in_the_first_person():
    now = datetime(2023, 2, 13, 12)
    evening = InterviewRequest(SAM, now, "When do you go to bed and eat dinner?", ())
    assert evening.parse(offline_answer(evening, seed=0)) == (
        "I go to bed around 9pm, awake up around 5am, eat dinner around 5pm."
    )
    work = InterviewRequest(ARTHUR, now, "Where do you work mostly, and when do you close the bar?", ())
    assert (
        work.parse(offline_answer(work, seed=0)) == "I mostly work at The Rose and Crown Pub. I close the bar at 10pm."
    )


@pytest.mark.parametrize(
    ("text", "known", "shows"),
    [
        ("John Lin is living with his wife, Mei Lin, and son, Eddy Lin.", "Mei Lin", True),
        ("John Lin is living with his wife, Mei Lin, and son, Eddy Lin.", "Eddy Lin", True),
        ("Mei Lin, my wife, teaches philosophy.", "Mei Lin", True),
        ("Jennifer Moore is walking with her husband.", "Jennifer Moore", False),
    ],
    ids=["wife", "and-son", "name-first", "someone-with-kin"],
)
def test_a_relation_named_beside_the_person_says_who_they_are(text, known, shows):
    request = FactCheckRequest(f"Do you know {known}?", text, f"John Lin knows who {known} is", "John Lin")
    assert request.parse(offline_answer(request, seed=0)) is shows


@pytest.mark.parametrize(
    ("answer", "shows"),
    [
        ("Let me think. Summary of my Monday February 13: Today: Maria Lopez told me: Isabella Rodriguez is planning "
         "a Valentine's Day party at Hobbs Cafe on February 14th from 5pm.", True),
        ("February 13, 2023, 08:00 AM: I woke up at 7:30 am. Isabella is hosting a Valentine's Day party at Hobbs "
         "Cafe.", True),
        ("From 8:00 am to 9:00 am I worked at Hobbs Cafe; Isabella is hosting a Valentine's Day party at Hobbs Cafe.",
         True),
        ("I ran 3 errands near Hobbs Cafe; Isabella is hosting a Valentine's Day party at Hobbs Cafe.", True),
        ("Isabella is hosting a Valentine's Day party at Hobbs Cafe at 9 pm on February 14.", False),
        ("Isabella is hosting a Valentine's Day party at Hobbs Cafe on the 20th.", False),
    ],
    ids=["summary-header", "date-header", "plan-times", "stray-count", "wrong-time", "wrong-day"],
)  # fmt: skip
def test_numbers_count_against_an_answer_only_where_they_date_the_fact(answer, shows):
    request = FactCheckRequest("Did you know there is a party?", answer, PARTY, "Maria Lopez")
    assert request.parse(offline_answer(request, seed=0)) is shows


@pytest.mark.parametrize(
    ("answer", "shows"),
    [
        ("Let me think. Latoya Williams is holding a bake sale at the Willows Market.", True),
        ("Let me think. I am holding a bake sale at the Willows Market.", True),
        ("Let me think. Latoya Williams and Ryan Park talked. The market was busy.", False),
    ],
    ids=["third-person", "first-person", "only-named"],
)
def test_the_source_stating_its_own_fact_in_any_person_counts(answer, shows):
    fact = "Latoya Williams is holding a bake sale at the Willows Market on Saturday"
    request = FactCheckRequest("Any news?", answer, fact, "Latoya Williams")
    assert request.parse(offline_answer(request, seed=0)) is shows
