"""The town for one simulated morning of the three-agent scenario, offline, and its reproducibility."""

import logging
from datetime import datetime

import pytest

from agents import AgentMemory
from agents.cognition.acting import IN_PLACE
from agents.schedule import MINUTES_PER_DAY
from smallville.model import SmallvilleModel

MORNING = datetime(2023, 2, 13, 9, 0)


def morning(seed=0, **options):
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", rng=seed, **options)
    model.run_until(MORNING)
    return model


@pytest.fixture(scope="module")
def town():
    return morning()


def test_each_wakes_at_the_hour_of_its_lifestyle(town):
    woke = {}
    for entry in town.event_log:
        if entry["kind"] == "action" and "sleeping" not in entry["text"] and entry["agent"] not in woke:
            woke[entry["agent"]] = datetime.fromisoformat(entry["time"]).hour
    assert woke["Isabella Rodriguez"] == 6  # "awakes up around 6am"
    assert woke["Klaus Mueller"] == 7  # "awakes up around 7am"
    assert "Maria Lopez" not in woke  # "awakes up around 10am"
    assert town.by_name["Maria Lopez"].sleeping


def test_schedules_fill_the_day_and_blocks_fill_their_hours(town):
    for agent in town.people:
        assert sum(slot.minutes for slot in agent.schedule.slots) == MINUTES_PER_DAY
        assert sum(minutes for _, minutes in agent.schedule.hourly) == MINUTES_PER_DAY


def test_every_action_is_at_a_real_place_the_agent_knows(town):
    for entry in town.event_log:
        if entry["kind"] == "action" and not IN_PLACE.match(entry["text"]):
            agent = town.by_name[entry["agent"]]
            assert town.ville.has_address(entry["address"]), entry
            assert agent.spatial.knows(entry["address"]), entry


def test_isabella_is_at_hobbs_cafe_by_opening_time(town):
    isabella = town.by_name["Isabella Rodriguez"]
    assert town.ville.address_at(isabella.tile).startswith("the Ville:Hobbs Cafe")
    assert isabella.action.description.startswith(("working at Hobbs Cafe", "talking with"))


def test_agents_moved_and_remembered(town):
    assert town.by_name["Klaus Mueller"].tile != (126, 46)
    assert all(len(agent.memories.stream) > 5 for agent in town.people)


@pytest.mark.slow  # simulates mornings of its own
def test_same_seed_same_event_log_other_seed_other_valid_log(town):
    assert morning(seed=0).event_log == town.event_log
    other = morning(seed=7)
    assert other.event_log != town.event_log
    assert all(sum(s.minutes for s in agent.schedule.slots) == MINUTES_PER_DAY for agent in other.people)


def without_latency(state):
    """Wall-clock latencies in the ledger are measurements, not state."""
    for record in state["ledger"]["records"]:
        record.pop("latency_s")
    return state


@pytest.mark.slow  # simulates mornings of its own
def test_state_round_trip_then_both_step_identically():
    first = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", rng=0)
    first.run_until(datetime(2023, 2, 13, 8, 0))
    second = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", rng=0)
    second.set_state(first.get_state())
    for _ in range(360):
        first.step()
        second.step()
    assert without_latency(second.get_state(streams=False)) == without_latency(first.get_state(streams=False))
    for a, b in zip(first.people, second.people, strict=True):
        assert list(a.memories.stream) == list(b.memories.stream)


@pytest.mark.slow  # simulates mornings of its own
def test_with_reflection_off_no_reflection_fires():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", reflection=False, reflection_threshold=5)
    model.run_until(MORNING)
    assert not any(node.kind == "reflection" for agent in model.people for node in agent.memories.stream)


@pytest.mark.slow  # simulates mornings of its own
def test_a_reflection_fires_past_the_threshold_and_cites_real_ids():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", reflection_threshold=30)
    model.run_until(MORNING)
    reflections = [
        (agent, node) for agent in model.people for node in agent.memories.stream if node.kind == "reflection"
    ]
    assert reflections
    for agent, node in reflections:
        assert node.evidence_ids and all(i < node.id and i in agent.memories.stream for i in node.evidence_ids)


@pytest.mark.slow  # simulates mornings of its own
def test_with_observation_off_perceived_events_are_not_stored():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", observation=False)
    model.run_until(MORNING)
    for agent in model.people:
        events = [node for node in agent.memories.stream if node.kind == "event"]
        assert events == []
        assert agent.spatial.knows("the Ville")


@pytest.mark.slow  # simulates mornings of its own
def test_a_closed_town_has_every_memory_vector_filled_in():
    model = morning()
    assert any(agent.memories.awaiting_vectors for agent in model.people)  # stored since their last retrieval
    model.close()
    for agent in model.people:
        assert not agent.memories.awaiting_vectors
        state = agent.memories.stream.get_state()  # reads every vector
        assert len(state["embeddings"]) == len(agent.memories.stream)


@pytest.mark.slow  # simulates mornings of its own
def test_closing_goes_on_when_the_vectors_cannot_come(caplog, monkeypatch):
    model = morning()

    async def gone(self):
        raise ConnectionError("embedding API gone")

    monkeypatch.setattr(AgentMemory, "vectors_arrived", gone)
    with caplog.at_level(logging.WARNING):
        model.close()
    assert "closing with memories whose vectors did not arrive: embedding API gone" in caplog.text
    assert model._loop.is_closed()
