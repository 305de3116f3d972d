"""The example a mesa-llm user copies from: genuine LLMAgents remembering with our memory stream."""

import importlib.util
from pathlib import Path

from mesa_llm.module_llm import ModuleLLM
from mesa_llm.reasoning.react import ReActReasoning

from agents import StreamMemory
from memory import NodeKind

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mesa_llm_memory.py"


def load_example():
    spec = importlib.util.spec_from_file_location("mesa_llm_memory", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_runs_and_relevant_important_memories_lead_each_prompt():
    example = load_example()
    considered = example.main(["--steps", "12"])
    assert set(considered) == {"Ada", "Ben", "Cleo"}
    for text in considered.values():
        relevant = text.split("Recent memories:")[0].splitlines()[1:]
        assert "election for mayor" in relevant[0]


def test_villagers_are_genuine_llm_agents_whose_messages_become_chats():
    example = load_example()
    village = example.Village()
    for _ in range(4):
        village.step()
    for agent in village.agents:
        assert isinstance(agent.llm, ModuleLLM) and isinstance(agent.reasoning, ReActReasoning)
        assert isinstance(agent.memory, StreamMemory)
        chats = [node for node in agent.memory.stream if node.kind == NodeKind.CHAT]
        assert chats and all("Did you hear?" in node.description for node in chats)
