"""What each litellm provider accepts: which call parameters, which structured-output form, which errors are final.

litellm routes a hundred providers but refuses a parameter a provider does not take (Anthropic and `seed`) with an
`UnsupportedParamsError`; asking litellm which parameters a provider takes, before the call, sends each provider
only those. Structured output comes in three forms, strongest first: OpenAI's `json_schema` (OpenAI and the
providers litellm says honour it), `json_object` with a `schema` (llama.cpp's server, vLLM: grammar-constrained
decoding), and none (the prompt alone asks for JSON). A server that refuses a form gets the next weaker one.
"""

import logging
import os
import re
from collections.abc import Mapping
from functools import cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

logger = logging.getLogger(__name__)

JSON_SCHEMA, JSON_OBJECT, PROMPT_ONLY = "json_schema", "json_object", "prompt"
FORMS = (JSON_SCHEMA, JSON_OBJECT, PROMPT_ONLY)
# Servers that take `{"type": "json_object", "schema": ...}` and refuse OpenAI's json_schema form (llama.cpp: HTTP 500).
GRAMMAR_PROVIDERS = frozenset({"hosted_vllm", "vllm", "llamafile", "lm_studio"})
# HTTP statuses worth a retry; every other 4xx is the provider's final word.
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})
# Words in a refusal that say the structured-output form (not the request) was refused.
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "format")


def split_model(model: str) -> tuple[str, str]:
    """("anthropic", "claude-3-5-haiku-latest") from "anthropic/claude-3-5-haiku-latest"."""
    provider, _, name = model.partition("/")
    return provider, name


@cache
def supported_parameters(model: str) -> frozenset[str] | None:
    """The OpenAI-style parameters litellm says the model's provider accepts (None: litellm does not know)."""
    from agents.language.backends.litellm_backend import import_litellm  # noqa: PLC0415 - litellm: 3 s

    provider, name = split_model(model)
    try:
        names = import_litellm().get_supported_openai_params(model=name, custom_llm_provider=provider)
    except Exception:  # an unknown provider or model: send everything and let the provider say what it refuses
        logger.debug("litellm knows no parameter list for %s", model)
        return None
    return frozenset(names) if names else None


def accepted(model: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters the model's provider accepts; the others are dropped (logged once per model and name)."""
    known = supported_parameters(model)
    kept = {key: value for key, value in parameters.items() if value is not None}
    if known is None:
        return kept
    for key in sorted(set(kept) - known):
        _log_dropped(model, key)
    return {key: value for key, value in kept.items() if key in known}


@cache
def _log_dropped(model: str, key: str) -> None:
    logger.info("%s does not accept %r; it is not sent", model, key)


@cache
def structured_forms(model: str, api_base: str | None = None) -> tuple[str, ...]:
    """The structured-output forms to try for a model, strongest first, always ending with the prompt alone."""
    from agents.language.backends.litellm_backend import import_litellm  # noqa: PLC0415

    provider, name = split_model(model)
    if "response_format" not in (supported_parameters(model) or frozenset()):
        return (PROMPT_ONLY,)
    if provider in GRAMMAR_PROVIDERS or (provider == "openai" and api_base):
        # A local OpenAI-compatible server (llama.cpp, vLLM): the grammar form; it 500s on json_schema.
        return (JSON_OBJECT, PROMPT_ONLY)
    if provider in {"ollama", "ollama_chat"}:
        return (JSON_SCHEMA, PROMPT_ONLY)  # litellm turns it into ollama's `format: <schema>`
    try:
        native = import_litellm().supports_response_schema(model=name, custom_llm_provider=provider)
    except Exception:
        native = False
    return (JSON_SCHEMA, PROMPT_ONLY) if native else (PROMPT_ONLY,)


def response_format(form: str, name: str, schema: dict) -> dict | None:
    """The `response_format` parameter of a form (None for the prompt alone)."""
    if form == JSON_SCHEMA:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
    if form == JSON_OBJECT:
        return {"type": "json_object", "schema": schema}
    return None


def without_credentials(url: str) -> str:
    """The URL without a user name or password in it, for a log line or a file."""
    parts = urlsplit(url)
    if not (parts.username or parts.password):
        return url
    return urlunsplit(parts._replace(netloc=(parts.hostname or "") + (f":{parts.port}" if parts.port else "")))


def unreachable(error: BaseException) -> str | None:
    """Why no connection was made, if none was (None when the server was reached).

    litellm reports a refused connection or an unknown host as an HTTP 500 (OpenAI, Anthropic) or a connection error
    (ollama), with the socket's own error at the root of its causes.
    """
    reason, seen = None, error
    for _ in range(12):  # litellm -> provider -> SDK -> httpx -> aiohttp -> socket: the deepest says it plainest
        if isinstance(seen, OSError) and (seen.strerror or seen.args):
            plain = os.strerror(seen.errno) if isinstance(seen.errno, int) and seen.errno > 0 else None
            reason = " ".join(str(plain or seen.strerror or seen.args[-1]).split())[:120]
        seen = seen.__cause__ or seen.__context__
        if seen is None:
            break
    return reason


def status_of(error: BaseException) -> int | None:
    """The HTTP status of a litellm error, if it carries one."""
    status = getattr(error, "status_code", None)
    try:
        return int(status) if status is not None else None
    except (TypeError, ValueError):
        return None


def is_transient(error: BaseException, litellm) -> bool:
    """Whether a retry may help: timeouts, connection errors, 408/409/425/429 and 5xx; never another 4xx."""
    if isinstance(error, litellm.exceptions.Timeout | litellm.exceptions.APIConnectionError):
        return True
    status = status_of(error)
    if status is None:
        return isinstance(error, litellm.exceptions.ServiceUnavailableError | litellm.exceptions.InternalServerError)
    return status in TRANSIENT_STATUSES or status >= 500


def refuses_format(error: BaseException) -> bool:
    """Whether an error (a 400, or llama.cpp's 500) is a refusal of the response_format rather than of the call."""
    status = status_of(error)
    text = str(error).lower()
    return status in {400, 422, 500} and any(word in text for word in FORMAT_WORDS)


def refusal_line(model: str, error: BaseException, *, transient: bool = False, api_base: str | None = None) -> str:
    """One line naming the model and, where the error says, the parameter it refused or the server it never reached."""
    text = " ".join(str(error).split())
    if found := re.search(r"does not support parameters: \[([^\]]*)\]", text):
        named = ", ".join(part.strip(" '\"") for part in found.group(1).split(","))
        return f"model {model!r} does not accept the parameter(s) {named}; leave them out or pick another model"
    if (reason := unreachable(error)) is not None:
        where = f"its server at {without_credentials(api_base)}" if api_base else "its provider's server"
        return f"model {model!r} could not reach {where} ({reason}); check that it runs, --api-base and the network"
    status = status_of(error)
    what = "failed" if transient else "refused the call"
    http = f", HTTP {status}" if status else ""
    return f"model {model!r} {what} ({type(error).__name__}{http}): {text[:300]}"
