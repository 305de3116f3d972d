"""Thinking windows: thoughts started within W steps are answered together and applied at the window's end, at a
time the simulation fixes, so a run is the same at any model latency."""

from datetime import datetime

import pytest

from agents.language.loopback_server import LoopbackServer
from smallville.model import SmallvilleModel


def town(**options) -> SmallvilleModel:
    return SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", **options)


def test_a_window_must_fit_the_metrics_rhythm():
    with pytest.raises(ValueError, match="thinking_window_steps 4 must divide collect_every 6"):
        town(thinking_window_steps=4)


def test_thinking_agents_stand_still_and_show_what_they_were_doing():
    model = town(thinking_window_steps=6)
    model.run_until(datetime(2023, 2, 13, 7, 0))
    seen_thinking = False
    for _ in range(60):
        before = {agent.name: (agent.tile, agent.status()) for agent in model.people}
        model.step()
        for name in model._thoughts:
            seen_thinking = True
            agent = model.by_name[name]
            assert agent.tile == before[name][0]
            assert model.snapshot().agents[name].activity == before[name][1].activity
        if model.step_count % 6 == 0:
            assert not model._thoughts  # every window ends with its thoughts applied
    assert seen_thinking
    model.close()


def test_a_checkpoint_inside_a_window_applies_the_thoughts_first():
    model = town(thinking_window_steps=6)
    model.run_until(datetime(2023, 2, 13, 7, 0, 20))
    state = model.get_state()
    assert not model._thoughts
    copy = town(thinking_window_steps=6, seed_memories=False)
    copy.set_state(state)
    logged = len(model.event_log)
    for _ in range(120):
        model.step()
        copy.step()
    assert [agent.tile for agent in copy.people] == [agent.tile for agent in model.people]
    assert copy.event_log == model.event_log[logged:] and copy.event_log
    model.close()
    copy.close()


def _events(model) -> list[tuple]:
    return [(e["time"], e["agent"], e["kind"], e["text"]) for e in model.event_log]


@pytest.mark.slow
def test_the_same_run_at_50_and_at_300_ms_a_call(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    logs = []
    for latency in (0.05, 0.3):
        with LoopbackServer(latency=latency) as server:
            model = town(llm="openai/loopback", api_base=server.url, seconds_per_step=60, thinking_window_steps=6)
            model.run_until(datetime(2023, 2, 13, 7, 40))
            model.close()
        assert server.stats.max_in_flight > 1
        logs.append(_events(model))
    assert logs[0] == logs[1]
    assert any(kind == "line" for _, _, kind, _ in logs[0]) or any(kind == "action" for _, _, kind, _ in logs[0])
