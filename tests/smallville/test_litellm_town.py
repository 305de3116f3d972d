"""Two agents for 30 simulated minutes through the real litellm path, against the loopback server."""

import gc
from datetime import datetime

import pytest

from smallville.model import SmallvilleModel
from testing import LoopbackServer


def run_through_loopback(server: LoopbackServer, agents: list[str], seconds_per_step: int) -> SmallvilleModel:
    """A town of `agents` run to 07:30 through litellm against `server`, then closed."""
    model = SmallvilleModel(
        scenario_name="the_ville_n3",
        agents=agents,
        llm="openai/loopback",
        api_base=server.url,
        embedder="hashing",
        seconds_per_step=seconds_per_step,
    )
    model.run_until(datetime(2023, 2, 13, 7, 30))
    model.close()
    return model


@pytest.mark.slow
def test_two_agents_plan_and_move_through_litellm(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    with LoopbackServer() as server:
        model = run_through_loopback(server, ["Isabella Rodriguez", "Klaus Mueller"], seconds_per_step=60)
    assert server.stats.requests > 10
    totals = model.gateway.ledger.totals()
    assert totals.calls == server.stats.requests and totals.fallbacks == 0
    for agent in model.people:
        assert sum(slot.minutes for slot in agent.schedule.slots) == 24 * 60
        assert agent.action is not None and model.ville.has_address(agent.action.address)
    moved = [entry for entry in model.event_log if entry["kind"] == "action" and entry["text"] != "sleeping"]
    assert moved, "the loopback schedule wakes agents at 7 am; they must have started actions"


@pytest.mark.slow
def test_models_closed_one_after_another_leave_no_litellm_task_behind(monkeypatch, caplog):
    """litellm's logging worker runs on the first model's loop; closing that model stops it rather than leaving a
    pending task that asyncio reports ("Task was destroyed but it is pending!") once the loop is gone."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    with LoopbackServer() as server:
        for _ in range(2):
            run_through_loopback(server, ["Isabella Rodriguez"], seconds_per_step=600)
            gc.collect()
    assert server.stats.requests > 2
    assert not [record for record in caplog.records if "destroyed but it is pending" in record.getMessage()]
