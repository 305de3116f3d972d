"""Model backends behind one interface: offline, litellm, scripted (tests)."""

from agents.language.backends.base import Backend, Completion, PermanentError, TransientError, estimate_tokens
from agents.language.backends.offline import OfflineBackend
from agents.language.backends.prompt_cache import prefix_cache_share
from agents.language.backends.scripted import ScriptedBackend

__all__ = [
    "Backend",
    "Completion",
    "OfflineBackend",
    "PermanentError",
    "ScriptedBackend",
    "TransientError",
    "estimate_tokens",
    "prefix_cache_share",
]
