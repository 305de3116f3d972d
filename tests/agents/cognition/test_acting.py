"""Acting: a place the model names that does not exist, or cannot be reached, never strands an agent."""

from pathlib import Path

import pytest

from agents import AgentStatus, DaySchedule, WorldView
from agents.cognition.acting import next_action, route
from agents.records import PlanState, Reuse
from environment import PathFinder, SpatialMemory, WorldState, load_ville
from tests.agents.cognition.scripted import T0, ScriptedMind, memory_with, run
from tests.agents.personas import DAY, identity

DATA = Path(__file__).resolve().parents[3] / "data" / "the_ville"
KLAUS = identity("Klaus Mueller")
SPATIAL = DATA / "base_the_ville_n25" / "personas" / "Klaus Mueller" / "bootstrap_memory" / "spatial_memory.json"


@pytest.fixture(scope="module")
def town():
    ville = load_ville(DATA)
    return ville, PathFinder(ville)


def home_tile(ville):
    return next(tile for tile in ville.tiles_of(KLAUS.living_area) if ville.is_walkable(tile))


@pytest.mark.parametrize(
    ("wanted", "reached"),
    [
        ("the Ville:Hobbs Cafe:cafe:no such object", "the Ville:Hobbs Cafe:cafe"),
        ("the Ville:Hobbs Cafe:no such room:piano", "the Ville:Hobbs Cafe"),
        ("the Ville:Atlantis:temple:altar", None),
    ],
    ids=["unknown-object", "unknown-arena", "unknown-sector"],
)
def test_route_falls_back_to_the_nearest_real_place_then_home(town, wanted, reached, caplog):
    ville, paths = town
    address, path = route(ville, paths, home_tile(ville), wanted, KLAUS.living_area, KLAUS.name)
    assert address == (reached or KLAUS.living_area)
    assert "cannot reach" in caplog.text
    assert path[-1] in ville.tiles_of(address) if path else address == KLAUS.living_area


def test_an_action_at_a_place_not_offered_falls_back_to_a_place_the_agent_knows(town, caplog):
    ville, paths = town
    tile = home_tile(ville)
    schedule = DaySchedule.from_blocks(DAY, [("sleeping", 540), ("going to the moon", 15), ("sleeping", 885)])
    plan = PlanState(schedule=schedule)
    nowhere = {"sector": "the Moon", "arena": "crater", "game_object": "rocket", "emoji": "🚀", "predicate": "fly",
               "target": "rocket", "object_state": "flying", "importance": 5}  # fmt: skip
    mind = ScriptedMind({"action": lambda r: {"actions": [nowhere] * len(r.actions)}})
    view = WorldView(
        now=T0, step=0, ville=ville, state=WorldState(ville),
        agents={KLAUS.name: AgentStatus(KLAUS.name, tile, "", "", False, None, None)},
    )  # fmt: skip
    spatial = SpatialMemory.from_file(SPATIAL)
    run(next_action(mind.ask, KLAUS, plan, Reuse(), spatial, memory_with(), view, tile, paths, observation=True))
    assert len(mind.asked("action")) == 2  # the answer, then the one repair, both refused
    assert "using the fallback" in caplog.text
    assert plan.action.description == "going to the moon"
    assert ville.has_address(plan.action.address)
    sector = plan.action.address.split(":")[1]
    assert sector in spatial.choices(KLAUS.name)
