"""Any litellm model: `openai/...`, `ollama/...`, `hosted_vllm/...`, `anthropic/...`, called through litellm.

Not through mesa-llm's ModuleLLM, which demands an API key at construction even for providers that need none, has
no timeout, and retries some errors forever: here every call has a timeout, no hidden retries (litellm's and the
OpenAI SDK's are switched off: the gateway retries, in one place), and temperature, seed and max_tokens pass through.
"""

import logging
import os

from agents.language.backends.base import Completion, PermanentError, TransientError
from agents.language.request import Request

logger = logging.getLogger(__name__)

# Providers that serve models without an API key.
KEYLESS_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile", "vllm"})


def import_litellm():
    """litellm, imported on first use (3 s) with its local cost map and without its console banners."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm  # noqa: PLC0415

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


class LiteLLMBackend:
    """One litellm model behind the backend interface."""

    def __init__(self, model: str, *, api_base: str | None = None, timeout_s: float = 60.0, prices=None):
        self.name = model
        self.model = model
        self.api_base = api_base
        self.timeout_s = timeout_s
        self.prices = prices or {}
        self.litellm = import_litellm()
        provider = model.split("/", 1)[0]
        # An OpenAI-compatible local server needs some key string; a real one comes from the environment.
        self._api_key = "not-needed" if api_base and provider in {"openai", *KEYLESS_PROVIDERS} else None
        if self._api_key and provider == "openai" and os.environ.get("OPENAI_API_KEY"):
            self._api_key = None

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """One call through litellm.acompletion, its failures sorted into transient and permanent."""
        litellm = self.litellm
        options = {
            "model": self.model,
            "messages": messages,
            "timeout": self.timeout_s,
            "num_retries": 0,
            "max_retries": 0,
            **{key: value for key, value in parameters.items() if value is not None},
        }
        if self.api_base:
            options["api_base"] = self.api_base
        if self._api_key:
            options["api_key"] = self._api_key
        try:
            response = await litellm.acompletion(**options)
        except (
            litellm.exceptions.RateLimitError,
            litellm.exceptions.InternalServerError,
            litellm.exceptions.ServiceUnavailableError,
            litellm.exceptions.APIConnectionError,
            litellm.exceptions.Timeout,
        ) as error:
            raise TransientError(f"{type(error).__name__}: {str(error)[:200]}") from None
        except litellm.exceptions.APIError as error:
            if getattr(error, "status_code", 0) and error.status_code >= 500:
                raise TransientError(f"{type(error).__name__}: {str(error)[:200]}") from None
            raise PermanentError(f"{type(error).__name__}: {str(error)[:200]}") from None
        except Exception as error:  # litellm raises many types; none of them may crash a run unexplained
            raise PermanentError(f"{type(error).__name__}: {str(error)[:200]}") from None
        text = response.choices[0].message.content or ""
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        return Completion(
            text=text, prompt_tokens=prompt, completion_tokens=completion, cost=self._cost(response, prompt, completion)
        )

    def _cost(self, response, prompt: int, completion: int) -> float | None:
        if self.model in self.prices:
            per_prompt, per_completion = self.prices[self.model]
            return prompt * per_prompt + completion * per_completion
        try:
            return float(self.litellm.completion_cost(completion_response=response))
        except Exception:  # an unpriced model costs "unknown", never a crash
            logger.debug("no price known for %s", self.model)
            return None
