"""What each litellm provider accepts: which call parameters, which structured-output form, which errors are final.

litellm routes a hundred providers but refuses a parameter a provider does not take (Anthropic and `seed`) with an
`UnsupportedParamsError`; asking litellm which parameters a provider takes, before the call, sends each provider
only those. Structured output comes in three forms, strongest first: OpenAI's `json_schema` (OpenAI in strict mode,
and every provider litellm turns it into an enforced form for: Anthropic's structured outputs or a tool, Gemini's
response_json_schema, vLLM's json_schema, Ollama's format), `json_object` with a `schema` (llama.cpp's server:
grammar-constrained decoding), and none (the prompt alone asks for JSON). A server that refuses a form gets the next
weaker one. The schema is rewritten in the provider's dialect (dialects.py).
"""

import logging
import os
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from functools import cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from agents.language.backends import dialects
from agents.language.backends.envelope import unreadable_answer
from agents.language.backends.litellm_import import import_litellm

logger = logging.getLogger(__name__)

JSON_SCHEMA, JSON_OBJECT, PROMPT_ONLY = "json_schema", "json_object", "prompt"
FORMS = (JSON_SCHEMA, JSON_OBJECT, PROMPT_ONLY)
# Servers that take `{"type": "json_object", "schema": ...}` and refuse OpenAI's json_schema form (llama.cpp: HTTP 500).
GRAMMAR_PROVIDERS = frozenset({"llamafile"})
# OpenAI-compatible servers of one's own: vLLM and SGLang (hosted_vllm/) and LM Studio enforce json_schema (their
# json_object is "any JSON object", a schema beside it ignored); llama-cpp-python's refuses it and takes json_object.
OWN_SERVERS = frozenset({"hosted_vllm", "vllm", "lm_studio"})
# Ollama compiles the json_schema form (which litellm sends as `format`) to a grammar.
OLLAMA = frozenset({"ollama", "ollama_chat"})
# Providers with OpenAI's strict mode: the schema is enforced exactly (OpenAI only without --api-base, the real API;
# Azure always: its --api-base is Azure's own endpoint).
STRICT_PROVIDERS = frozenset({"openai", "azure"})
# Providers that serve other makers' models under "<maker>/<model>" names, each in that maker's form.
ROUTERS = frozenset({"openrouter"})
# Providers that serve Claude (besides Anthropic itself), known by "claude" in the model's name.
CLAUDE_HOSTS = frozenset({"bedrock", "bedrock_converse", "vertex_ai", "openrouter"})
# HTTP statuses worth a retry; every other 4xx is the provider's final word.
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})
# Words in a refusal that say the structured-output form (not the request) was refused.
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "format")


def split_model(model: str) -> tuple[str, str]:
    """("anthropic", "claude-haiku-4-5") from "anthropic/claude-haiku-4-5"."""
    provider, _, name = model.partition("/")
    return provider, name


def routed_maker(model: str) -> str | None:
    """The maker a router sends the model to: "openai" for "openrouter/openai/gpt-5-mini" (None: not routed)."""
    provider, name = split_model(model)
    maker, sep, _ = name.partition("/")
    return maker if provider in ROUTERS and sep else None


def is_claude(model: str) -> bool:
    """Whether the model is Claude, served by Anthropic or by a host of Claude (Bedrock, Vertex AI, OpenRouter)."""
    provider, name = split_model(model)
    return provider == "anthropic" or (provider in CLAUDE_HOSTS and "claude" in name.lower())


@cache
def supported_parameters(model: str) -> frozenset[str] | None:
    """The OpenAI-style parameters litellm says the model's provider accepts (None: litellm does not know)."""
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
    """The structured-output forms to try for a model, strongest first, always ending with the prompt alone.

    OpenAI's own models, Anthropic's (litellm sends its structured outputs, or a forced tool where a model has none),
    Gemini's and Ollama's take `json_schema`; a server of one's own (`hosted_vllm/`, or `openai/` with --api-base)
    is asked for `json_schema` first (vLLM, SGLang), and llama-cpp-python's server, which refuses it with a 500,
    then gets `json_object` with the schema.
    """
    provider, name = split_model(model)
    if "response_format" not in (supported_parameters(model) or frozenset()):
        return (PROMPT_ONLY,)
    if provider in OWN_SERVERS or (provider == "openai" and api_base):
        return (JSON_SCHEMA, JSON_OBJECT, PROMPT_ONLY)
    if provider in GRAMMAR_PROVIDERS:
        return (JSON_OBJECT, PROMPT_ONLY)
    if provider in OLLAMA or is_claude(model) or routed_maker(model) in {"openai", "google"}:
        return (JSON_SCHEMA, PROMPT_ONLY)
    try:
        native = import_litellm().supports_response_schema(model=name, custom_llm_provider=provider)
    except Exception:
        native = False
    return (JSON_SCHEMA, PROMPT_ONLY) if native else (PROMPT_ONLY,)


def dialect(model: str, api_base: str | None = None) -> str:
    """How the model's provider reads a schema (dialects.py): strict OpenAI, Gemini, a grammar, Anthropic, plain."""
    provider, _ = split_model(model)
    if is_claude(model):
        return dialects.ANTHROPIC
    if provider == "azure" or (provider == "openai" and not api_base) or routed_maker(model) == "openai":
        return dialects.STRICT
    if provider in {"gemini", "vertex_ai"} or routed_maker(model) == "google":
        return dialects.GEMINI
    if provider in GRAMMAR_PROVIDERS | OWN_SERVERS | OLLAMA or api_base:
        return dialects.GRAMMAR
    return dialects.PLAIN


def response_format(form: str, name: str, schema: dict | None, model: str = "", api_base: str | None = None):
    """The `response_format` parameter of a form for a model (None for the prompt alone).

    A request without an answer model gets JSON mode (`json_object` alone) where the provider has a structured form,
    never a null schema; Claude has no JSON mode, so it gets the prompt alone.
    """
    if form == PROMPT_ONLY:
        return None
    spoken = dialect(model, api_base)
    if schema is None:
        return None if spoken == dialects.ANTHROPIC else {"type": "json_object"}
    sent = dialects.rewrite(schema, spoken)
    if form == JSON_SCHEMA:
        # Strict where the schema is enforced exactly: OpenAI's and Azure's strict mode, and a router's OpenAI or
        # Claude model (OpenRouter's structured outputs guide asks for `strict: true`).
        enforced = spoken == dialects.STRICT or (routed_maker(model) and spoken == dialects.ANTHROPIC)
        strict = {"strict": True} if enforced else {}
        return {"type": "json_schema", "json_schema": {"name": name, "schema": sent, **strict}}
    return {"type": "json_object", "schema": sent}


def answer_options(form: str, name: str, schema: dict | None, model: str, api_base: str | None = None,
                   output_config: dict | None = None) -> dict[str, Any]:  # fmt: skip
    """The call options that carry the answer's form: `response_format`, or Anthropic's GA `output_config.format`.

    Claude on Anthropic's API with native structured outputs gets `output_config.format` only (the beta
    `output_format`, which litellm makes of `response_format`, is never sent beside it), merged with the
    `output_config` the reasoning effort maps to (`output_config`: its `effort`).
    """
    answer_format = response_format(form, name, schema, model, api_base)
    if answer_format is None:
        return {}
    native = split_model(model)[0] == "anthropic" and _model_flag(model, "supports_native_structured_output")
    if native and answer_format.get("type") == "json_schema":
        claude_format = {"type": "json_schema", "schema": answer_format["json_schema"]["schema"]}
        return {"output_config": {**(output_config or {}), "format": claude_format}}
    return {"response_format": answer_format}


def wire_form(model: str, form: str, api_base: str | None = None) -> str:  # noqa: PLR0911 - one return a form
    """What a form becomes on the provider's wire, for tables: "json_schema strict", "output_format", "format"..."""
    if form == PROMPT_ONLY:
        return "prompt"
    provider, _ = split_model(model)
    if form == JSON_OBJECT:
        return "json_object+schema"
    if dialect(model, api_base) == dialects.STRICT or (routed_maker(model) and is_claude(model)):
        return "json_schema strict"
    if provider == "anthropic":
        return "output_config.format" if _model_flag(model, "supports_native_structured_output") else "tool"
    if is_claude(model) and provider != "vertex_ai":
        return "outputConfig.textFormat" if _model_flag(model, "supports_native_structured_output") else "tool"
    if provider in {"gemini", "vertex_ai"}:
        return "response_json_schema"
    if provider in OLLAMA:
        return "format"
    return "json_schema"


def _model_flag(model: str, flag: str) -> bool:
    """A capability litellm's model map states for a model (False where it says nothing)."""
    try:
        return bool(import_litellm().get_model_info(model).get(flag))
    except Exception:
        return False


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


# The package to install for a module a provider's client imports only when first called (litellm imports them lazily).
PACKAGES = {"google.auth": "google-auth", "google": "google-auth", "boto3": "boto3", "botocore": "boto3"}


def missing_library(model: str, error: BaseException) -> str | None:
    """One line naming the Python package a provider needs and lacks (Vertex AI: google-auth), if that is the error.

    litellm reports a missing module as a connection error (retried as transient, then a traceback): a package
    missing is no fault of the network, and no retry installs it.
    """
    found = re.search(r"No module named '([\w.]+)'", str(error))
    seen: BaseException | None = error
    for _ in range(12):
        if found or seen is None:
            break
        if isinstance(seen, ModuleNotFoundError) and seen.name:
            found = re.match(r"(.+)", seen.name)
        seen = seen.__cause__ or seen.__context__
    if not found:
        return None
    module = found.group(1)
    package = PACKAGES.get(module) or PACKAGES.get(module.partition(".")[0]) or module.partition(".")[0]
    return (f"model {model!r} needs the Python package {package} (module {module!r} is missing); "
            f"install it into this environment (pip install {package}) and try again")  # fmt: skip


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


def retry_after(error: BaseException, now: datetime | None = None) -> float | None:
    """The seconds a server asked to wait before the next try (Retry-After / retry-after-ms), if its answer said.

    Retry-After is either seconds or an HTTP date (RFC 9110, section 10.2.3); OpenAI also sends retry-after-ms.
    """
    headers = getattr(error, "litellm_response_headers", None) or getattr(error, "headers", None) or {}
    try:
        milliseconds = headers.get("retry-after-ms")
        if milliseconds is not None:
            return max(0.0, float(milliseconds) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def refuses_format(error: BaseException) -> bool:
    """Whether an error is the server's refusal of the response_format rather than of the call.

    A 400 or 422 naming the form, or llama.cpp's 500 naming `response_format`; never an answer litellm could not
    read (envelope.py), whose traceback may name the form too.
    """
    status = status_of(error)
    text = str(error).lower()
    if unreadable_answer(error):
        return False
    if status == 500:
        return "response_format" in text
    return status in {400, 422} and any(word in text for word in FORMAT_WORDS)


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
