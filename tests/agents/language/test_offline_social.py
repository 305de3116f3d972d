"""The offline mind's social and inner life: news spreads through talk, reflections cite evidence; it is stable."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.language import requests as asks
from agents.language.answers import PlaceOption
from agents.language.offline import offline_answer

from ..personas import DAY, NOON, identity
from .request_cases import PARTY, REQUESTS

ISABELLA, MARIA, KLAUS = identity("Isabella Rodriguez"), identity("Maria Lopez"), identity("Klaus Mueller")
SEEDS = range(200)


def _ask(request, seed=0):
    return request.parse(offline_answer(request, seed))


def _reaction(seed, own="serving coffee", other="studying", memories=("Maria Lopez is a loyal friend to me",)):
    return _ask(asks.ReactionRequest(ISABELLA, NOON, own, "Maria Lopez", other, memories), seed).choice


def test_reactions_talk_to_acquaintances_more_than_to_strangers_and_never_to_sleepers():
    known = sum(_reaction(seed) == "talk" for seed in SEEDS)
    stranger = sum(_reaction(seed, memories=("Klaus Mueller is writing",)) == "talk" for seed in SEEDS)
    assert 0 < stranger < known < len(SEEDS)  # seeded: the same pair talks under some seeds only
    assert {_reaction(seed, other="sleeping") for seed in SEEDS} == {"continue"}
    assert {_reaction(seed, own="asleep in bed") for seed in SEEDS} == {"continue"}


def test_a_talk_opens_with_the_line_the_offline_mind_would_open_it_with():
    """Deciding to talk gives the opening, from the reaction's own memories and the speaker's status."""
    memories = ("Maria Lopez is a loyal friend to me", PARTY)
    talks = [
        reaction
        for seed in SEEDS
        if (
            reaction := _ask(
                asks.ReactionRequest(ISABELLA, NOON, "serving coffee", "Maria Lopez", "studying", memories), seed
            )
        ).choice
        == "talk"
    ]
    assert talks
    opening = _ask(asks.ConversationLineRequest(ISABELLA, "Maria Lopez", "Hobbs Cafe", NOON, memories, (), 8)).line
    assert {reaction.opening for reaction in talks} == {opening}
    assert opening.startswith("Hi Maria!") and "Valentine's Day party" in opening
    assert {
        _ask(asks.ReactionRequest(ISABELLA, NOON, "serving coffee", "Maria Lopez", "sleeping", memories), seed).opening
        for seed in SEEDS
    } == {""}


def _talk(speaker, partner, memories, max_lines=8):
    """Two offline minds talk until one says goodbye; each speaks from its own memories."""
    lines: tuple[tuple[str, str], ...] = ()
    people = ((speaker, partner.name, memories[0]), (partner, speaker.name, memories[1]))
    for turn in range(max_lines):
        who, other, remembered = people[turn % 2]
        said = _ask(asks.ConversationLineRequest(who, other, "Hobbs Cafe", NOON, remembered, lines, max_lines))
        lines = (*lines, (who.name, said.line))
        if said.end:
            break
    summary = _ask(asks.ConversationSummaryRequest(speaker.name, partner.name, lines))
    return lines, dict(summary.takeaways)


def test_news_spreads_from_isabella_through_maria_to_klaus():
    lines, kept = _talk(ISABELLA, MARIA, ((PARTY, "the cafe is idle"), ("I am studying physics",)))
    assert lines[0][1].startswith("Hi Maria!") and "Valentine's Day party" in lines[0][1]
    assert "Valentine's Day party" in kept["Maria Lopez"] and "physics" in kept["Isabella Rodriguez"]
    assert "Valentine's Day party" not in kept["Isabella Rodriguez"]  # each keeps what the OTHER said
    assert not any("idle" in text for _, text in lines)
    _, passed_on = _talk(MARIA, KLAUS, ((kept["Maria Lopez"],), ("I am writing a paper on gentrification",)))
    assert "Valentine's Day party" in passed_on["Klaus Mueller"]


@pytest.mark.parametrize(
    ("lines", "max_lines", "end"),
    [
        ((), 8, False),
        ((("Isabella Rodriguez", "Hi Maria! " + PARTY), ("Maria Lopez", "Nice!")), 8, True),
        ((("Isabella Rodriguez", "Hi Maria!"), ("Maria Lopez", "Hi!")), 3, True),
    ],
    ids=["opening", "nothing-new-left", "max-lines-near"],
)
def test_a_talker_says_goodbye_when_it_has_nothing_new_or_time_is_up(lines, max_lines, end):
    request = asks.ConversationLineRequest(ISABELLA, "Maria Lopez", "Hobbs Cafe", NOON, (PARTY,), lines, max_lines)
    assert _ask(request).end is end


def test_importance_follows_the_shape_of_the_memory():
    """Idle, an observation, something told, something told that is set for later with others: each scores higher."""
    memories = (
        "the bed is idle",
        "Maria Lopez is studying",
        "Maria Lopez told me about her exam",
        "Maria Lopez told me she is visiting her aunt with friends on Friday",
    )
    scores = _ask(asks.ImportanceRequest(ISABELLA, memories))
    assert scores[0] == 1 and list(scores) == sorted(set(scores)) and scores[-1] >= 7


def test_reflection_asks_about_the_person_named_most():
    statements = ("Klaus Mueller is writing", "Maria Lopez is studying", "Maria Lopez said hi", "Maria Lopez left")
    questions = _ask(asks.ReflectionQuestionsRequest(ISABELLA, statements, 5))
    assert len(questions) == 5 and "Maria Lopez" in questions[0] and "Klaus Mueller" in questions[1]


def test_insights_cite_the_memories_that_support_them():
    memories = ((3, "Maria Lopez is studying physics"), (5, "the cafe is busy"), (9, "Maria Lopez likes streaming"))
    insights = _ask(asks.InsightsRequest(ISABELLA, (("What do I know about Maria Lopez?", (3, 5, 9)),), memories))
    assert insights and {cited for insight in insights for cited in insight.evidence_ids} == {3, 9}


def test_the_day_summary_carries_tomorrows_plans_into_the_status():
    memories = (
        (NOON, "I served coffee"),
        (NOON, "Klaus Mueller told me: Klaus Mueller will come to the party tomorrow at 5pm"),
    )
    summary = _ask(asks.DaySummaryRequest(MARIA, DAY, memories))
    assert "Klaus Mueller will come to the party on February 14 at 5pm" in summary.currently
    assert MARIA.currently in summary.currently
    assert "party" in summary.summary


def test_interview_answers_from_the_memories_that_share_the_question_words():
    memories = ("I love my work", PARTY, "the piano is idle")
    answer = _ask(asks.InterviewRequest(ISABELLA, NOON, "Are you planning a Valentine's Day party?", memories))
    assert "Valentine's Day party" in answer and "piano" not in answer


@pytest.mark.parametrize("grounded_first", [True, False], ids=["grounded-is-a", "grounded-is-b"])
def test_the_judge_prefers_the_answer_grounded_in_specifics(grounded_first):
    grounded, vague = "Isabella hosts it at Hobbs Cafe on February 14 at 5 pm", "I don't know"
    a, b = (grounded, vague) if grounded_first else (vague, grounded)
    verdict = _ask(asks.JudgeRequest("Who hosts the party?", "Isabella owns Hobbs Cafe", a, b))
    assert verdict.choice == ("a" if grounded_first else "b")


KINDS = sorted(REQUESTS)


@pytest.mark.parametrize("kind", KINDS, ids=KINDS)
def test_offline_answers_depend_only_on_the_request_and_seed(kind):
    first = offline_answer(REQUESTS[kind], 7)
    for other in REQUESTS.values():  # answering other requests leaves no trace
        offline_answer(other, 3)
    assert offline_answer(REQUESTS[kind], 7) == first


def test_seeded_choices_vary_with_the_seed():
    for kind in ("decompose", "reaction"):
        assert len({offline_answer(REQUESTS[kind], seed) for seed in range(60)}) > 1, kind
    desks = (PlaceOption("Oak Hill College", "library", ("desk",)), PlaceOption("Dorm", "common room", ("desk",)))
    tie = asks.ActionRequest(ISABELLA, ("writing a poem",), "", "", desks)
    assert {_ask(tie, seed)[0].sector for seed in range(60)} == {"Oak Hill College", "Dorm"}


@pytest.mark.slow  # starts a Python process
def test_answers_are_the_same_in_another_process_with_another_hash_seed():
    code = (
        "import json; from agents.language.offline import offline_answer; "
        "from tests.agents.language.test_requests import REQUESTS; "
        "print(json.dumps({kind: offline_answer(request, 5) for kind, request in REQUESTS.items()}))"
    )
    root = Path(__file__).resolve().parents[3]
    env = {"PYTHONHASHSEED": "12345", "PATH": ""}
    result = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == {kind: offline_answer(request, 5) for kind, request in REQUESTS.items()}
