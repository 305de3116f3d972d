"""The minds: generative agents, their cognition, prompts, and the one gateway to language models.

Two names load on first use, so that `run.py --help` and the parameter table stay light: GenerativeAgent (Mesa, 1.4 s
of imports) and StreamMemory (our memory stream behind mesa-llm's Memory interface: mesa-llm imports litellm, 3-4 s).
litellm itself loads only when a litellm model or embedder is first used.
"""

import importlib
import os

# litellm fetches its model-cost map from the internet at import unless told to use its local copy;
# set it here so that every entry point gets it before anything imports litellm.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from agents.agent_memory import AgentMemory, PendingMemory
from agents.config import MindConfig
from agents.conversation import Conversation
from agents.decision import Decision
from agents.embedder_choice import make_agent_embedder
from agents.identity import Identity
from agents.language.gateway import (
    REASONING_EFFORTS,
    BudgetExceeded,
    CacheMiss,
    Gateway,
    GatewayConfig,
    ModelUnavailable,
    check_model,
    check_models,
)
from agents.mind import Mind
from agents.persona import Persona, PersonaFileError, load_persona, load_whispers
from agents.schedule import DaySchedule
from agents.world_view import AgentStatus, WorldView

__all__ = [
    "REASONING_EFFORTS",
    "AgentMemory",
    "AgentStatus",
    "BudgetExceeded",
    "CacheMiss",
    "Conversation",
    "DaySchedule",
    "Decision",
    "Gateway",
    "GatewayConfig",
    "GenerativeAgent",
    "Identity",
    "Mind",
    "MindConfig",
    "ModelUnavailable",
    "PendingMemory",
    "Persona",
    "PersonaFileError",
    "StreamMemory",
    "WorldView",
    "check_model",
    "check_models",
    "load_persona",
    "load_whispers",
    "make_agent_embedder",
]


_ON_FIRST_USE = {"GenerativeAgent": "agents.agent", "StreamMemory": "agents.stream_memory"}


def __getattr__(name: str):
    """The heavy names on first use (PEP 562)."""
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(_ON_FIRST_USE[name]), name)
    globals()[name] = value
    return value
