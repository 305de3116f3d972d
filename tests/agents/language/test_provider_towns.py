"""A short town run end to end through litellm in each wire format the loopback server speaks."""

from datetime import datetime

import pytest

from smallville.model import SmallvilleModel
from testing import LoopbackServer

FAMILIES = [
    ("hosted_vllm/loopback", "url"),
    ("ollama_chat/loopback", "root"),
    ("anthropic/claude-haiku-4-5", "root"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("llm", "base"), FAMILIES, ids=[llm.split("/")[0] for llm, _ in FAMILIES])
def test_two_agents_plan_and_move_through_each_provider_family(monkeypatch, llm, base):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-loopback")
    with LoopbackServer() as server:
        model = SmallvilleModel(
            scenario_name="the_ville_n3",
            agents=["Isabella Rodriguez", "Klaus Mueller"],
            llm=llm,
            api_base=getattr(server, base),
            embedder="hashing",
            seconds_per_step=60,
        )
        model.run_until(datetime(2023, 2, 13, 7, 30))
        model.close()
    totals = model.gateway.ledger.totals()
    assert totals.calls == server.stats.requests > 10
    assert totals.fallbacks == 0 and totals.retries == 0
    assert totals.cached_tokens > 0 or llm.startswith("ollama")  # ollama reports no cache
    for agent in model.people:
        assert sum(slot.minutes for slot in agent.schedule.slots) == 24 * 60
        assert agent.action is not None and model.ville.has_address(agent.action.address)
