"""The minds: generative agents, their cognition, prompts, and the one gateway to language models.

The face of the package: the town (smallville/) and examples import these names, or those of the two documented
subpackage faces, `agents.language` (requests, answers and the gateway's parts) and `agents.cognition` (the steps of
a mind), never an inner module.

Two names load on first use, so that `run.py --help` and the parameter table stay light: GenerativeAgent (Mesa, 1.4 s
of imports) and StreamMemory (our memory stream behind mesa-llm's Memory interface: mesa-llm imports litellm, 3-4 s).
litellm itself loads only when a litellm model or embedder is first used, with the settings it needs
(agents/language/backends/litellm_import.py); importing this package writes no environment variable.
"""

import importlib

from agents.agent_memory import AgentMemory, PendingMemory
from agents.config import MindConfig
from agents.conversation import Conversation
from agents.decision import Decision
from agents.embedder_choice import make_agent_embedder
from agents.identity import Identity
from agents.language.backends.model_names import check_model_name, needs_key
from agents.language.embeddings import check_embedder
from agents.language.gateway import (
    REASONING_EFFORTS,
    BudgetExceeded,
    CacheMiss,
    Gateway,
    GatewayConfig,
    ModelUnavailable,
    check_models,
)
from agents.mind import Mind
from agents.persona import Persona, PersonaFileError, load_persona, load_whispers
from agents.schedule import DaySchedule
from agents.world_view import AgentStatus, WorldView

# The name smallville/ still calls it by; it goes when smallville/ calls `check_model_name` (issue 49).

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
    "check_embedder",
    "check_model_name",
    "check_models",
    "load_persona",
    "load_whispers",
    "make_agent_embedder",
    "needs_key",
]


_ON_FIRST_USE = {"GenerativeAgent": "agents.agent", "StreamMemory": "agents.stream_memory"}


def __getattr__(name: str):
    """The heavy names on first use (PEP 562)."""
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(_ON_FIRST_USE[name]), name)
    globals()[name] = value
    return value
