"""A plain mesa-llm LLMAgent can use our memory stream as its memory."""

import mesa
from mesa_llm.llm_agent import LLMAgent

from agents.stream_memory import StreamMemory
from memory import HashingEmbedder, MemoryStream, NodeKind


class PlainAgent(LLMAgent):
    """An LLMAgent without an LLM: its constructor would demand an API key, which this test does not need."""

    def __init__(self, model):
        super(LLMAgent, self).__init__(model)
        self.memory = StreamMemory(agent=self, stream=MemoryStream(dim=384), embedder=HashingEmbedder())


def test_llm_agent_uses_the_stream_through_mesa_llm_memory(capsys):
    model = mesa.Model(rng=0)
    agent = PlainAgent(model)
    agent.memory.add_to_memory("observation", {"text": "Klaus is reading in the library"})
    agent.memory.add_to_memory("message", {"message": "Hello Klaus!", "sender": "Maria"})
    agent.memory.process_step()
    stream = agent.memory.stream
    assert [node.kind for node in stream] == [NodeKind.EVENT, NodeKind.CHAT]
    assert "Klaus is reading in the library" in agent.memory.get_prompt_ready()
    assert "Hello Klaus!" in agent.memory.get_communication_history()
    assert agent.memory.step_content == {}
    assert capsys.readouterr().out == ""  # display off: no console panels
