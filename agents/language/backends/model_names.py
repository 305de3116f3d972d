"""Whether a model name can be used as given, decided once for every door: the run's, the interview's, the embedder's.

A name is "offline" or a litellm name ("provider/model") of a provider litellm knows. It needs an API key in the
environment unless its provider serves without one (ollama, vLLM, LM Studio...) or it is served at an `api_base` of
one's own (an `openai/...` name at a local llama.cpp or vLLM server): the same name is checked with the run's
`api_base`, or a local server one command accepted another would refuse.
"""

import os
from types import ModuleType

from agents.language.backends.litellm_import import import_litellm

OFFLINE = "offline"
# Providers that serve models without an API key.
KEYLESS_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile", "vllm"})
# The key string sent to a server of one's own, whose client library insists on some key.
PLACEHOLDER_KEY = "not-needed"


def needs_key(name: str, api_base: str | None = None) -> bool:
    """Whether a model name needs an API key from the environment, given the server it is called at (if any)."""
    provider = name.partition("/")[0]
    return name != OFFLINE and provider not in KEYLESS_PROVIDERS and not api_base


def check_model_name(name: str, api_base: str | None = None) -> None:
    """Say in one line what is wrong with a model name, given its `api_base`, before anything is built or called.

    The name is not called: a wrong name, an unknown provider or a key missing from the environment is found at
    once, not after a run's first tries.

    Raises:
        ValueError: For a name that is neither "offline" nor "provider/model", an unknown provider, or a provider
            whose API key is missing from the environment.
    """
    if name == OFFLINE:
        return
    provider, sep, rest = name.partition("/")
    if not sep or not rest:
        raise ValueError(f"model {name!r}: use 'offline' or a litellm name such as 'openai/gpt-5.4-mini'")
    litellm = import_litellm()
    known = {str(getattr(item, "value", item)) for item in litellm.provider_list}
    if provider not in known:
        raise ValueError(
            f"model {name!r}: unknown provider {provider!r}; litellm knows e.g. openai, ollama, hosted_vllm"
        )
    if not needs_key(name, api_base):
        return
    missing = litellm.validate_environment(model=name).get("missing_keys") or []
    # litellm counts a variable set to "" as present; the provider would then refuse the first call.
    missing += [key for key, value in os.environ.items() if key.endswith("_API_KEY") and not value.strip()]
    missing = [key for key in dict.fromkeys(missing) if key in _expected_keys(litellm, name)]
    if missing:
        raise ValueError(f"model {name!r} needs {', '.join(missing)} in the environment (never on the command line)")


def placeholder_key(litellm: ModuleType, model: str, api_base: str | None) -> str | None:
    """Some key string for a server of one's own (litellm's clients insist on one), unless the environment has one."""
    return PLACEHOLDER_KEY if api_base and not _key_in_environment(litellm, model) else None


def _key_in_environment(litellm: ModuleType, model: str) -> bool:
    try:
        return not (litellm.validate_environment(model=model).get("missing_keys") or [])
    except Exception:  # a provider litellm cannot validate: no key of its own
        return False


def _expected_keys(litellm: ModuleType, name: str) -> set[str]:
    """The environment variables a provider reads, as litellm knows them (with every one of them unset)."""
    saved = {key: os.environ.pop(key) for key in list(os.environ) if key.endswith("_API_KEY")}
    try:
        return set(litellm.validate_environment(model=name).get("missing_keys") or [])
    finally:
        os.environ.update(saved)
