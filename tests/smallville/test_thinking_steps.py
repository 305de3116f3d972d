"""Thinking that overlaps time: a thought started at step s that asks a model takes effect at the end of step
s + thinking_steps (one that asks none at the end of step s; a line of talk at s + talk_thinking_steps), a time the
simulation fixes, so a run is the same at any model latency; 0 is the paper's lock-step."""

import asyncio
import itertools
import json
import random
from datetime import datetime

import pytest

from agents import AgentStatus, Decision
from agents.embedder_choice import forget_embedders
from agents.language.answers import ConversationSummary
from smallville.conversations import start_talk
from smallville.model import SmallvilleModel
from smallville.runs.store import RunStore
from smallville.thinking import Thoughts
from testing import LoopbackServer

NOW = datetime(2023, 2, 13, 9, 0)


def town(**options) -> SmallvilleModel:
    return SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", **options)


def _events(model) -> list[tuple]:
    return [(e["time"], e["agent"], e["kind"], e["text"]) for e in model.event_log]


@pytest.mark.slow  # runs the town for hours
def test_lock_step_leaves_no_thought_in_flight_between_steps():
    model = town(thinking_steps=0)
    model.run_until(datetime(2023, 2, 13, 7, 0))
    for _ in range(30):
        model.step()
        assert not model.thoughts
    model.close()


def _asks_of(model, name: str) -> int:
    return sum(record.agent == name for record in model.gateway.ledger.records)


def test_a_thought_takes_effect_exactly_its_thinking_steps_later_while_the_agent_stands_still():
    model = town(thinking_steps=3)
    model.run_until(datetime(2023, 2, 13, 7, 0))
    started: dict[str, int] = {}
    seen = 0
    for _ in range(720):
        before = {agent.name: (agent.tile, model.public_status(agent)) for agent in model.people}
        thinking_before = set(model.thoughts)
        model.step()
        for name in model.thoughts:
            if name not in thinking_before:
                started[name] = model.step_count - 1
            assert model.by_name[name].tile == before[name][0]  # stands still
            assert model.snapshot().agents[name] == before[name][1]  # shows what it was doing
        for name in thinking_before - set(model.thoughts):
            assert model.step_count - 1 == started.pop(name) + 3  # applied at the end of its due step
            seen += 1
    assert seen > 3
    model.close()


@pytest.mark.slow  # runs the town for hours
def test_a_thought_that_asks_no_model_takes_effect_at_its_own_step():
    model = town(thinking_steps=3)
    model.run_until(datetime(2023, 2, 13, 7, 0))
    thought_at: dict[str, tuple[int, int]] = {}  # agent -> (the step its thought started, its asks before)
    for agent in model.people:

        def prepare(view, candidates, agent=agent, prepare=agent.prepare):
            thinking = prepare(view, candidates)
            if thinking is not None and model.steps_to_think(agent) == 3:  # not a line of talk
                thought_at[agent.name] = (model.step_count, _asks_of(model, agent.name))
            return thinking

        agent.prepare = prepare
    quick = slow = 0
    for _ in range(720):
        thought_at.clear()
        model.step()
        for name, (step, asks) in thought_at.items():
            if name in model.thoughts:  # still in flight: it asked a model, and is due N steps on
                assert model.thoughts[name].due == step + 3 and model.thoughts[name].asked_model
                slow += 1
            else:  # applied at the end of this very step: it asked nothing
                assert _asks_of(model, name) == asks
                quick += 1
    assert quick > 3 and slow > 3
    model.close()


@pytest.mark.slow  # runs the town for hours
@pytest.mark.parametrize(("talk_thinking_steps", "seconds_between_lines"), [(0, 10), (6, 70)])
def test_a_line_of_talk_takes_its_own_steps_whatever_a_thought_takes(talk_thinking_steps, seconds_between_lines):
    """The partner waits for a line: with talk_thinking_steps 0 a talk goes a line a step, as in lock-step, while
    every other thought that asks a model takes 6 steps; with 6 a line waits 6 steps and the partner's comes after."""
    model = town(thinking_steps=6, talk_thinking_steps=talk_thinking_steps)
    longest = 0  # the most steps a thought in flight had still to go
    while not any(entry["kind"] == "talk" for entry in model.event_log) and model.now < datetime(2023, 2, 14):
        model.step()
        longest = max([longest] + [model.thoughts[name].due - model.step_count + 1 for name in model.thoughts])
    first_talk = list(itertools.takewhile(lambda entry: entry["kind"] != "talk", model.event_log))
    times = [datetime.fromisoformat(entry["time"]) for entry in first_talk if entry["kind"] == "line"]
    assert len(times) >= 3  # the first talk's lines
    assert {(later - earlier).total_seconds() for earlier, later in itertools.pairwise(times)} == {
        seconds_between_lines
    }
    assert longest == 6  # the other thoughts that ask a model still take their 6 steps
    model.close()


@pytest.mark.slow  # runs the town for hours
def test_a_thinking_agent_cannot_be_drawn_into_a_talk():
    model = town(thinking_steps=2)
    model.run_until(datetime(2023, 2, 13, 9, 0))
    while not model.thoughts:
        model.step()
    thinking = model.by_name[next(iter(model.thoughts))]
    other = next(agent for agent in model.people if agent.name not in model.thoughts)
    for agent in model.people:
        agent.talk.conversation = None
    assert not start_talk(model, other, thinking, model.now)
    assert thinking.conversation is None
    model.close()


@pytest.mark.slow  # runs the town for hours
def test_a_checkpoint_keeps_the_thoughts_in_flight_and_changes_nothing():
    plain, checked = town(thinking_steps=2), town(thinking_steps=2)
    for model in (plain, checked):
        model.run_until(datetime(2023, 2, 13, 7, 0, 20))
    while not checked.thoughts:
        checked.step()
        plain.step()
    state = checked.get_state()
    state["thoughts"] = json.loads(json.dumps(state["thoughts"]))  # as a checkpoint file holds them
    assert checked.thoughts and state["thoughts"]  # decided, still to take effect at their own steps
    copy = town(thinking_steps=2, seed_memories=False)
    copy.set_state(state)
    logged = len(checked.event_log)
    for _ in range(120):
        for model in (plain, checked, copy):
            model.step()
    assert checked.event_log == plain.event_log
    assert [agent.tile for agent in copy.people] == [agent.tile for agent in checked.people]
    assert copy.event_log == checked.event_log[logged:] and copy.event_log
    for model in (plain, checked, copy):
        model.close()


@pytest.mark.slow
def test_the_same_run_at_50_and_at_400_ms_a_call(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    logs = []
    for latency in (0.05, 0.4):
        with LoopbackServer(latency=latency) as server:
            model = town(llm="openai/loopback", api_base=server.url, seconds_per_step=60, thinking_steps=2)
            model.run_until(datetime(2023, 2, 13, 7, 40))
            model.close()
        assert server.stats.max_in_flight > 1
        logs.append(_events(model))
    assert logs[0] == logs[1]
    assert any(kind in ("line", "action") for _, _, kind, _ in logs[0])


@pytest.mark.slow
def test_the_same_run_whether_an_embedding_api_answers_at_once_or_late(monkeypatch):
    """Memories are stored before their vectors arrive and filled in at the next retrieval: when the vectors come
    must not matter. The town's embeddings go through litellm to the loopback server, cold each time."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    logs = []
    for latency in (0.0, 0.1):
        forget_embedders()
        with LoopbackServer(latency=latency) as server:
            model = SmallvilleModel(scenario_name="the_ville_n3", embedder="openai/loopback-embed", api_base=server.url)
            model.run_until(datetime(2023, 2, 13, 20, 0))  # the loopback's vectors mean nothing: a talk comes late
            retrievals = sum(agent.memories.retrievals for agent in model.people)
            model.close()
        logs.append((_events(model), retrievals))
    assert logs[0] == logs[1]
    events, retrievals = logs[0]
    assert retrievals >= 5 and {"line", "talk", "recall"} <= {kind for _, _, kind, _ in events}


def _jittered_run(seed: int, thinking_steps: int, talk_thinking_steps: int) -> list[tuple]:
    """The three agents' day to 2 pm (their first talk) with every model call delayed by a random 0-4 ms: answers
    arrive in another order."""
    model = town(thinking_steps=thinking_steps, talk_thinking_steps=talk_thinking_steps)
    ask, delays = model.gateway.ask, random.Random(seed)

    async def late_ask(*args, **kwargs):
        await asyncio.sleep(delays.random() * 0.004)
        return await ask(*args, **kwargs)

    model.gateway.ask = late_ask
    model.run_until(datetime(2023, 2, 13, 14, 0))
    model.close()
    return _events(model)


@pytest.mark.slow  # runs the town for hours
@pytest.mark.parametrize(("thinking_steps", "talk_thinking_steps"), [(0, 0), (2, 0), (2, 2)])
def test_answers_arriving_in_another_order_change_nothing(thinking_steps, talk_thinking_steps):
    first = _jittered_run(1, thinking_steps, talk_thinking_steps)
    assert first == _jittered_run(2, thinking_steps, talk_thinking_steps)
    assert {"line", "talk", "action"} <= {kind for _, _, kind, _ in first}  # with 2, 2 lines were in flight too


def test_a_talk_that_ends_while_an_agent_thinks_reaches_it_with_its_thought():
    loop = asyncio.new_event_loop()
    thoughts = Thoughts(loop)
    summary = ConversationSummary("they talked about the weather", (("Bob", "it may rain"),))
    assert not thoughts.defer_talk_end("Ann", summary, NOW)  # not thinking: the caller ends it at once

    async def thinking() -> Decision:
        return Decision(talk_to="Ann")

    shown = AgentStatus("Bob", (0, 0), "reading", "", False, "Ann", None)
    thoughts.start("Bob", thinking(), shown, due=4)
    assert thoughts.defer_talk_end("Bob", summary, NOW)
    assert thoughts.shown("Bob") == shown and thoughts.due(3) == [] and thoughts.due(4) == ["Bob"]
    loop.run_until_complete(thoughts.finish())
    restored = Thoughts(loop)
    restored.set_state(json.loads(json.dumps(thoughts.get_state())))
    for kept in (thoughts, restored):
        answered = loop.run_until_complete(kept.answer(["Bob"]))
        assert list(answered) == ["Bob"] and "Bob" not in kept
        assert answered["Bob"].decision == Decision(talk_to="Ann")
        assert answered["Bob"].talks_ended == [(summary, NOW)]
    loop.close()


@pytest.mark.slow  # runs the town for hours
def test_a_run_folder_checkpoint_with_thoughts_in_flight_resumes_exactly(tmp_path):
    """Through the run folder (JSON checkpoint, memory store): a run restored from a checkpoint taken while
    thoughts were in flight goes on exactly as the uninterrupted run."""
    options = {"scenario_name": "the_ville_n3", "embedder": "hashing", "llm": "offline", "thinking_steps": 7}
    whole = SmallvilleModel(**options)
    whole.run_until(datetime(2023, 2, 13, 7, 0))
    while not whole.thoughts:
        whole.step()
    store = RunStore.create(tmp_path / "run", {**options, "end": "2023-02-13T09:00:00", "checkpoint_minutes": 10})
    store.checkpoint(whole)
    store.close()
    in_flight = len(whole.thoughts)
    logged = len(whole.event_log)
    whole.run_until(datetime(2023, 2, 13, 9, 0))
    reopened = RunStore.open(tmp_path / "run")
    assert len(reopened.snapshot.state["model"]["thoughts"]) == in_flight > 0
    resumed = SmallvilleModel(**options, seed_memories=False)
    reopened.restore(resumed)
    resumed.run_until(datetime(2023, 2, 13, 9, 0))
    assert resumed.event_log == whole.event_log[logged:]
    assert "action" in {entry["kind"] for entry in resumed.event_log}
    for model in (whole, resumed):
        model.close()
    reopened.close()


@pytest.mark.slow  # builds a town and its run folder
def test_a_run_folder_written_before_talks_had_their_own_steps_resumes_as_it_ran(tmp_path):
    """Such a run gave a line of talk its thinking steps: resumed, it goes on doing so, not switching rules."""
    from smallville.commands.loading import build_model
    from smallville.commands.report import thinking_rule

    options = {"scenario_name": "the_ville_n3", "embedder": "hashing", "llm": "offline", "thinking_steps": 7}
    model = SmallvilleModel(**options)
    store = RunStore.create(tmp_path / "run", {**options, "end": "2023-02-13T09:00:00", "checkpoint_minutes": 10})
    store.checkpoint(model)
    store.close()
    model.close()
    assert "talk_thinking_steps" not in json.loads((tmp_path / "run" / "config.json").read_text())
    reopened = RunStore.open(tmp_path / "run")
    assert reopened.config()["talk_thinking_steps"] == 7
    resumed = build_model(reopened)
    assert resumed.talk_thinking_steps == 7
    assert "7 steps after it began, a line of talk 7 steps after" in thinking_rule(reopened.config())  # the report
    resumed.close()
    reopened.close()
