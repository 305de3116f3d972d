"""A plain mesa-llm LLMAgent uses our memory stream as its memory, through mesa-llm's own methods."""

from datetime import datetime, timedelta

import mesa
import pytest
from mesa_llm.llm_agent import LLMAgent

from agents.stream_memory import StreamMemory
from memory import HashingEmbedder, MemoryStream, NodeKind

T0 = datetime(2023, 2, 13, 9, 0)


class Clock:
    """A settable simulated time."""

    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


class PlainAgent(LLMAgent):
    """An LLMAgent built without its constructor, which would demand an API key (mesa-stack.md section 3)."""

    def __init__(self, model, clock):
        super(LLMAgent, self).__init__(model)
        self.llm = None
        self.memory = StreamMemory(agent=self, stream=MemoryStream(dim=384), embedder=HashingEmbedder(), clock=clock)
        self.tool_manager = None
        self.reasoning = None
        self.vision = 0
        self.internal_state = []
        self.step_prompt = None
        self._current_plan = None
        self._step_display_data = {}
        self.recorder = None
        self.steps_taken = 0

    def step(self):
        self.memory.add_to_memory("observation", {"text": f"step {self.steps_taken}: the cafe is busy"})
        self.steps_taken += 1


@pytest.fixture
def town():
    clock = Clock()
    model = mesa.Model(rng=0)
    return clock, PlainAgent(model, clock), PlainAgent(model, clock)


def test_messages_sent_by_mesa_llm_become_chat_nodes_on_both_sides(town, capsys):
    clock, isabella, klaus = town
    clock.now = T0 + timedelta(minutes=5)
    isabella.send_message("Come to my Valentine's Day party!", [klaus])
    (received,) = klaus.memory.stream
    (sent,) = isabella.memory.stream
    assert (received.kind, received.created, received.importance) == (NodeKind.CHAT, clock.now, 1)
    assert received.lines == ((str(isabella.unique_id), "Come to my Valentine's Day party!"),)
    assert (received.partner, sent.partner) == (str(isabella.unique_id), str(klaus.unique_id))
    assert "Come to my Valentine's Day party!" in klaus.memory.get_communication_history()
    assert klaus.memory.stream.about(str(isabella.unique_id)) == [received]
    assert capsys.readouterr().out == ""  # display off: no console panels


def test_a_wrapped_step_stores_observations_and_clears_the_step_buffer(town):
    clock, isabella, _ = town
    for minute in range(3):
        clock.now = T0 + timedelta(minutes=minute)
        isabella.step()  # mesa-llm wraps it: process_step(pre_step=True), step, process_step()
    stream = isabella.memory.stream
    assert [(node.kind, node.created) for node in stream] == [
        (NodeKind.EVENT, T0 + timedelta(minutes=m)) for m in range(3)
    ]
    assert isabella.memory.step_content == {}
    prompt = isabella.memory.get_prompt_ready().splitlines()
    assert prompt[0] == "[2023-02-13 09:00] observation: step 0: the cafe is busy"
    assert prompt[-1].endswith("step 2: the cafe is busy")


def test_entries_are_retrievable_and_carry_a_given_importance(town):
    _, isabella, _ = town
    memory = isabella.memory
    memory.add_to_memory("observation", {"text": "Klaus is reading in the library", "importance": 6})
    memory.add_to_memory("plan", {"goal": "decorate Hobbs Cafe"})
    assert [node.importance for node in memory.stream] == [6, 1]
    assert memory.stream.node(1).description == 'plan: {"goal": "decorate Hobbs Cafe"}'
    query = memory.embedder.embed(["Klaus is reading"])[0]
    (best,) = memory.stream.retrieve(query, now=T0, k=1, touch=False)
    assert best.node.id == 0


@pytest.mark.parametrize(
    ("content", "error"),
    [("just text", TypeError), ({"text": "x", "importance": 12}, ValueError)],
    ids=["not-a-dict", "importance-out-of-range"],
)
def test_bad_entries_are_refused(town, content, error):
    _, isabella, _ = town
    with pytest.raises(error):
        isabella.memory.add_to_memory("observation", content)
    assert len(isabella.memory.stream) == 0


def test_without_a_clock_the_model_time_is_required():
    model = mesa.Model(rng=0)
    agent = PlainAgent(model, clock=None)
    with pytest.raises(TypeError, match="pass clock="):
        agent.memory.add_to_memory("observation", {"text": "hello"})
    model.now = T0
    agent.memory.add_to_memory("observation", {"text": "hello"})
    assert agent.memory.stream.node(0).created == T0


def test_an_embedder_of_another_dimension_is_refused():
    model = mesa.Model(rng=0)
    agent = PlainAgent(model, Clock())
    with pytest.raises(ValueError, match="makes 16-d vectors; the stream holds 384"):
        StreamMemory(agent=agent, stream=MemoryStream(dim=384), embedder=HashingEmbedder(dim=16))
