"""Reactions: the original's gates, our cool-downs, the three choices, and memories from the scored retrieval."""

from datetime import timedelta

import pytest

from agents import MindConfig, WorldView
from agents.cognition.reacting import may_react, react, reaction_candidates, wait_minutes
from agents.records import SocialClock
from memory import NodeKind, RetrievalWeights
from tests.agents.cognition.scripted import T0, ScriptedMind, memory_with, run
from tests.agents.personas import identity, status

CONFIG = MindConfig()


def view(*agents, now=T0):
    return WorldView(now=now, step=0, ville=None, state=None, agents={agent.name: agent for agent in agents})


ME, OTHER = "Klaus Mueller", "Maria Lopez"


@pytest.mark.parametrize(
    ("me", "other", "hour", "may_chat", "expected"),
    [
        (status(ME), status(OTHER), 9, True, True),
        (status(ME, sleeping=True), status(OTHER), 9, True, False),
        (status(ME), status(OTHER, sleeping=True), 9, True, False),
        (status(ME, talking_with="Someone Else"), status(OTHER), 9, True, False),
        (status(ME), status(OTHER, talking_with="Someone Else"), 9, True, False),
        (status(ME), status(OTHER), 23, True, False),
        (status(ME), status(OTHER), 9, False, False),
    ],
    ids=["free", "me-asleep", "other-asleep", "me-talking", "other-talking", "quiet-hour", "pair-cool-down"],
)
def test_gates(me, other, hour, may_chat, expected):
    assert may_react(me, other, T0.replace(hour=hour), may_chat, CONFIG.quiet_hour) is expected


def test_candidates_respect_the_pause_and_each_persons_cool_down():
    town = view(status(ME), status(OTHER), status("Isabella Rodriguez"))
    clock = SocialClock()
    assert reaction_candidates(town.agents[ME], [OTHER, "Isabella Rodriguez"], town, clock, CONFIG) == [
        OTHER,
        "Isabella Rodriguez",
    ]
    clock.reactions[OTHER] = T0 + timedelta(minutes=1)
    assert reaction_candidates(town.agents[ME], [OTHER, "Isabella Rodriguez"], town, clock, CONFIG) == [
        "Isabella Rodriguez"
    ]
    clock.paused_until = T0 + timedelta(minutes=1)
    assert reaction_candidates(town.agents[ME], [OTHER], town, clock, CONFIG) == []
    clock.chats[OTHER] = T0 + timedelta(seconds=1)
    assert not clock.may_chat(OTHER, T0) and clock.may_chat(OTHER, T0 + timedelta(seconds=1))


def test_talk_starts_a_talk_with_its_opening_line_and_sets_no_cool_down():
    mind = ScriptedMind({"reaction": lambda r: {"choice": "talk", "reason": "hello", "line": "Morning, Maria!"}})
    clock = SocialClock()
    outcome = run(react(mind.ask, identity(ME), memory_with(), view(status(ME), status(OTHER)), [OTHER], clock, CONFIG))
    assert outcome.talk_to == OTHER and outcome.opening == "Morning, Maria!" and outcome.wait is None
    assert OTHER not in clock.reactions and clock.paused_until == T0 + timedelta(minutes=15)


@pytest.mark.parametrize(
    ("answer", "talk_to", "opening"),
    [
        ({"choice": "talk", "reason": "hello"}, OTHER, ""),  # no line given: asked on its own at the next step
        ({"choice": "talk", "reason": "hello", "line": f"{ME}: Hello!"}, OTHER, "Hello!"),
        ({"choice": "continue", "reason": "busy", "line": "Hello!"}, None, ""),  # no talk, nothing said
    ],
    ids=["no-line", "own-name-dropped", "line-without-talk"],
)
def test_an_opening_line_is_kept_only_for_a_talk(answer, talk_to, opening):
    mind = ScriptedMind({"reaction": lambda r: answer})
    town = view(status(ME), status(OTHER))
    outcome = run(react(mind.ask, identity(ME), memory_with(), town, [OTHER], SocialClock(), CONFIG))
    assert (outcome.talk_to, outcome.opening) == (talk_to, opening)


PIANO = "the Ville:Hobbs Cafe:cafe:piano"


def test_wait_over_a_shared_object_inserts_a_wait_and_holds_the_person_back_only_while_it_lasts():
    mind = ScriptedMind({"reaction": lambda r: {"choice": "wait", "reason": "busy"}})
    clock = SocialClock()
    other = status(OTHER, "using the piano", ends=T0 + timedelta(minutes=12), address=PIANO)
    town = view(status(ME, "playing the piano", address=PIANO), other)
    outcome = run(react(mind.ask, identity(ME), memory_with(), town, [OTHER], clock, CONFIG, walking=True))
    assert outcome.wait == (f"waiting for {OTHER} to finish using the piano", 15)
    assert clock.reactions[OTHER] == T0 + timedelta(minutes=15)  # the wait, then they may still talk
    (request,) = mind.asked("reaction")
    assert (
        request.choices == ("talk", "wait", "continue") and "piano in cafe in Hobbs Cafe" in request.fields()["options"]
    )


def test_wait_is_offered_only_on_the_way_to_the_object():
    mind = ScriptedMind({"reaction": lambda r: {"choice": "continue", "reason": "fine"}})
    town = view(status(ME, address=PIANO), status(OTHER, address=PIANO))
    run(react(mind.ask, identity(ME), memory_with(), town, [OTHER], SocialClock(), CONFIG, walking=False))
    assert mind.asked("reaction")[0].choices == ("talk", "continue")  # already there: nothing to wait for


def test_wait_is_not_offered_without_a_shared_place_and_a_declined_talk_cools_down_briefly():
    mind = ScriptedMind({"reaction": lambda r: {"choice": "wait", "reason": "she is reading"}})
    clock = SocialClock()
    town = view(status(ME, address="the Ville:Oak Hill College:library"), status(OTHER, address=PIANO))
    outcome = run(react(mind.ask, identity(ME), memory_with(), town, [OTHER], clock, CONFIG))
    (request,) = mind.asked("reaction")
    assert request.choices == ("talk", "continue") and '"wait"' not in request.messages()[1]["content"]
    assert outcome.wait is None and outcome.talk_to is None
    assert clock.reactions[OTHER] == T0 + timedelta(minutes=CONFIG.reaction_cooldown_minutes)
    assert CONFIG.reaction_cooldown_minutes <= 60  # a short cool-down, not the day


def test_the_reaction_shows_how_long_ago_they_last_talked():
    memory = memory_with()
    run(
        memory.add(
            NodeKind.CHAT, f"conversation with {OTHER}: the exam", created=T0 - timedelta(hours=3), importance=4,
            keywords=(OTHER, "conversation"),
        )
    )  # fmt: skip
    mind = ScriptedMind({"reaction": lambda r: {"choice": "continue", "reason": "we just talked"}})
    run(react(mind.ask, identity(ME), memory, view(status(ME), status(OTHER)), [OTHER], SocialClock(), CONFIG))
    (request,) = mind.asked("reaction")
    assert request.last_chat_minutes == 180 and "They last talked 3 hours ago" in request.messages()[1]["content"]


@pytest.mark.parametrize(
    ("minutes_left", "waited"), [(0, 5), (3, 5), (12, 15), (90, 30)], ids=["ended", "short", "rounded-up", "capped"]
)
def test_waits_are_whole_5_minutes_within_bounds(minutes_left, waited):
    assert wait_minutes(status(OTHER, ends=T0 + timedelta(minutes=minutes_left)), T0, CONFIG) == waited


def test_continue_only_cools_down():
    mind = ScriptedMind({"reaction": lambda r: {"choice": "continue", "reason": "busy"}})
    clock = SocialClock()
    outcome = run(react(mind.ask, identity(ME), memory_with(), view(status(ME), status(OTHER)), [OTHER], clock, CONFIG))
    assert outcome.talk_to is None and outcome.wait is None and OTHER in clock.reactions


def test_no_candidate_asks_nothing():
    mind = ScriptedMind({})
    outcome = run(react(mind.ask, identity(ME), memory_with(), view(status(ME)), [], SocialClock(), CONFIG))
    assert outcome.talk_to is None and mind.requests == []


def test_the_memories_shown_follow_the_retrieval_weights():
    """The retrieval-weight ablation reaches reactions: importance-only and relevance-only weights show different
    memories about the same person (what involves the person first, whatever the weights: a fire elsewhere is not
    what the agent remembers about Maria)."""
    memory = memory_with(
        ("Maria Lopez is studying physics at the library", 2),
        ("the stove is on fire in the kitchen", 9),
        ("Maria Lopez is reading", 1),
    )
    shown = {}
    for name, weights in {"importance": (0, 0, 1), "relevance": (0, 1, 0)}.items():
        config = MindConfig(retrieval_weights=RetrievalWeights(*weights), reaction_memories=1)
        mind = ScriptedMind({"reaction": lambda r: {"choice": "continue", "reason": "busy"}})
        town = view(status(ME), status(OTHER, "reading"))
        run(react(mind.ask, identity(ME), memory, town, [OTHER], SocialClock(), config))
        (request,) = mind.asked("reaction")
        shown[name] = request.memories
    assert shown["importance"] == ("Maria Lopez is studying physics at the library",)
    assert shown["relevance"] == ("Maria Lopez is reading",)
