"""The minds: generative agents, their cognition, prompts, and the one gateway to language models.

Heavy parts (the agent class pulls in mesa-llm and so litellm, 3-4 s) load on first use, so that `run.py --help`
and the tests of light modules stay fast.
"""

import importlib
import os

# litellm fetches its model-cost map from the internet at import unless told to use its local copy;
# set it here so that every entry point gets it before anything imports litellm.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

_EXPORTS = {
    "GenerativeAgent": "agents.agent",
    "AgentMemory": "agents.agent_memory",
    "PendingMemory": "agents.agent_memory",
    "MindConfig": "agents.config",
    "Conversation": "agents.conversation",
    "Decision": "agents.decision",
    "Identity": "agents.identity",
    "Mind": "agents.mind",
    "Persona": "agents.persona",
    "PersonaFileError": "agents.persona",
    "load_persona": "agents.persona",
    "load_whispers": "agents.persona",
    "DaySchedule": "agents.schedule",
    "AgentStatus": "agents.world_view",
    "WorldView": "agents.world_view",
    "make_agent_embedder": "agents.embedder_choice",
    "Gateway": "agents.language.gateway",
    "GatewayConfig": "agents.language.gateway",
    "BudgetExceeded": "agents.language.gateway",
    "CacheMiss": "agents.language.gateway",
    "ModelUnavailable": "agents.language.gateway",
    "check_model": "agents.language.gateway",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    """Import an exported name's module on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value
