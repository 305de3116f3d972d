"""Two agents placed side by side talk, keep the talk, and wait out the cool-down; memories stay with their owner."""

import asyncio
from datetime import datetime, timedelta

import pytest

from agents.conversation import Conversation
from agents.decision import Decision
from agents.language.answers import ConversationTurn
from smallville.conversations import apply_decisions, start_talk
from smallville.model import SmallvilleModel


@pytest.mark.slow  # runs two agents' morning to their talk
def test_neighbours_talk_remember_and_respect_the_cool_down():
    model = SmallvilleModel(
        scenario_name="the_ville_n3", agents=["Isabella Rodriguez", "Maria Lopez"], embedder="hashing", rng=1
    )
    isabella, maria = model.people
    counter = model.ville.tiles_of("the Ville:Hobbs Cafe:cafe:behind the cafe counter")[0]
    seat = model.ville.tiles_of("the Ville:Hobbs Cafe:cafe:cafe customer seating")[0]
    model.run_until(datetime(2023, 2, 13, 10, 0))  # Maria wakes at 10; left alone they talk at the cafe at 10:42
    for agent, tile in ((isabella, counter), (maria, seat)):
        agent.cell = model.grid[tile]
        agent.action.minutes = 0  # both pick their next action where they now stand
        agent.social.paused_until = None
        agent.social.reactions.clear()
    started = None
    for _ in range(6 * 60 * 3):  # up to three simulated hours
        model.step()
        if started is None and model.conversations:
            started = model.now
        if started is not None and not model.conversations:
            break
    assert started is not None, "two agents side by side in the cafe never talked"
    talks = [entry for entry in model.event_log if entry["kind"] == "talk"]
    lines = [entry for entry in model.event_log if entry["kind"] == "line"]
    assert len(talks) == 1 and len(lines) >= 2
    model.step()  # the chat and the takeaways are scored with the next importance batch
    for agent, partner in ((isabella, "Maria Lopez"), (maria, "Isabella Rodriguez")):
        for _ in range(6 * 60):
            if not agent.memories.pending:
                break
            model.step()
        chats = [node for node in agent.memories.stream if node.kind == "chat"]
        assert chats and chats[-1].partner == partner and len(chats[-1].lines) == len(lines)
        assert any(node.kind == "thought" and node.object == partner for node in agent.memories.stream)
        cooldown = timedelta(seconds=model.config.chat_cooldown_seconds)
        assert agent.social.chats[partner] >= started + cooldown - timedelta(seconds=model.seconds_per_step)
    end_of_talk = model.step_count
    while model.step_count < end_of_talk + 300:
        model.step()
    assert len([entry for entry in model.event_log if entry["kind"] == "talk"]) == 1  # cool-down: no second talk
    ids = {agent.name: {id(node) for node in agent.memories.stream} for agent in model.people}
    assert not ids["Isabella Rodriguez"] & ids["Maria Lopez"]


def test_the_public_status_follows_the_tile_the_minutes_and_the_talk():
    """The status is kept between steps: it must still change with whatever changes the agent's public face."""
    model = SmallvilleModel(
        scenario_name="the_ville_n3", agents=["Isabella Rodriguez", "Maria Lopez"], embedder="hashing", rng=1
    )
    isabella, maria = model.people
    model.run_until(datetime(2023, 2, 13, 10, 20))  # awake, before their first talk of the day
    before = isabella.status()
    assert isabella.status() is before  # nothing changed: the kept one
    counter = model.ville.tiles_of("the Ville:Hobbs Cafe:cafe:behind the cafe counter")[0]
    isabella.cell = model.grid[counter]
    assert isabella.status().tile == counter
    isabella.action.minutes += 5
    assert isabella.status().action_ends == before.action_ends + timedelta(minutes=5)
    talk = Conversation(first=isabella.name, second=maria.name, started=model.now, max_lines=4)
    isabella.start_conversation(talk, model.now, 10)
    status = isabella.status()
    assert status.talking_with == "Maria Lopez" and status.activity == "talking with Maria Lopez"
    assert status.action_ends == model.now + timedelta(minutes=10)


@pytest.mark.slow  # builds and steps a town of its own
def test_the_first_line_and_the_schedule_rewritten_around_the_talk_are_asked_at_once():
    """They need nothing from each other: the speaker's step waits one round of latency for both, not two."""
    model = SmallvilleModel(
        scenario_name="the_ville_n3", agents=["Isabella Rodriguez", "Maria Lopez"], embedder="hashing", rng=1
    )
    isabella, maria = model.people
    model.run_until(datetime(2023, 2, 13, 10, 20))  # awake, before their first talk of the day
    backend = model.gateway.backend("offline")
    complete = backend.complete
    in_flight: list[tuple[str, str]] = []
    seen_together: set[frozenset] = set()

    async def slow(request, messages, parameters):
        inner = getattr(request, "inner", request)
        asker = getattr(inner, "speaker", None) or getattr(inner, "identity", None)
        call = (asker.name if asker else "", inner.kind)
        in_flight.append(call)
        seen_together.add(frozenset(kind for name, kind in in_flight if name == call[0]))
        try:
            await asyncio.sleep(0.05)
            return await complete(request, messages, parameters)
        finally:
            in_flight.remove(call)

    backend.complete = slow
    assert start_talk(model, isabella, maria, model.now)
    model.step()
    line = [entry for entry in model.event_log if entry["kind"] == "line"]
    assert [entry["agent"] for entry in line] == ["Isabella Rodriguez"]
    assert frozenset({"conversation_line", "schedule_rewrite"}) in seen_together


@pytest.mark.slow  # runs the town to a talk
def test_a_talk_opened_by_the_reaction_goes_on_with_the_partner_and_an_unstarted_one_says_nothing():
    """The reaction's opening line is the talk's first: said when the talk starts, the partner answering next."""
    model = SmallvilleModel(
        scenario_name="the_ville_n3",
        agents=["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"],
        embedder="hashing",
        rng=1,
    )
    isabella, maria, klaus = model.people
    model.run_until(datetime(2023, 2, 13, 10, 20))  # awake, before their first talk of the day
    opening = ConversationTurn("Hello Maria, how is the studying going?", False)
    decisions = [Decision(talk_to=maria.name, line=opening), None, Decision(talk_to=maria.name, line=opening)]
    apply_decisions(model, decisions, model.snapshot())
    talk = isabella.conversation
    assert talk is maria.conversation and klaus.conversation is None  # Isabella came first in agent order
    assert talk.lines == [(isabella.name, opening.line)] and talk.speaker == maria.name
    lines = [(entry["agent"], entry["text"]) for entry in model.event_log if entry["kind"] == "line"]
    assert lines == [(isabella.name, opening.line)]  # Klaus's opening, for a talk that did not start, is not said
