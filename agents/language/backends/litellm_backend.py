"""Any litellm model: `openai/...`, `ollama/...`, `hosted_vllm/...`, `anthropic/...`, called through litellm.

Not through mesa-llm's ModuleLLM, which demands an API key at construction even for providers that need none, has
no timeout, and retries some errors forever: here every call has a timeout, no hidden retries (litellm's and the
OpenAI SDK's are switched off: the gateway retries, in one place), only the parameters the provider accepts
(providers.py), and the answer's JSON schema where the provider can enforce it.
"""

import asyncio
import logging

from agents.language.backends import providers, reasoning
from agents.language.backends.base import Completion, PermanentError, TransientError
from agents.language.backends.context_window import ContextWindow
from agents.language.backends.envelope import MalformedAnswer, count, detail, first_choice, unreadable_answer
from agents.language.backends.litellm_import import import_litellm
from agents.language.backends.model_names import placeholder_key
from agents.language.backends.prompt_cache import prepare_messages, prompt_cache_key
from agents.language.request import Request

logger = logging.getLogger(__name__)


class LiteLLMBackend:
    """One litellm model behind the backend interface."""

    def __init__(self, model: str, *, api_base: str | None = None, timeout_s: float = 60.0, prices=None,
                 structured: bool = True, reasoning_effort: str = reasoning.DEFAULT_EFFORT):  # fmt: skip
        self.name = model
        self.model = model
        self.api_base = api_base
        self.timeout_s = timeout_s
        self.reasoning_effort = reasoning_effort
        self.prices = prices or {}
        self.litellm = import_litellm()
        provider = model.split("/", 1)[0]
        self._api_key = placeholder_key(self.litellm, model, api_base)
        # Structured-output forms still to try, strongest first; a refused form is dropped for the rest of the run.
        self.forms = list(providers.structured_forms(model, api_base) if structured else (providers.PROMPT_ONLY,))
        self.format_downgrades = 0
        self.malformed_answers = 0  # answers whose envelope could not be read, each retried as a fault
        self._anthropic = provider == "anthropic"
        self._keys_cache = provider == "openai" and not api_base  # OpenAI's own API takes a prompt_cache_key
        self._context = ContextWindow(model)

    async def aclose(self) -> None:
        """Stop litellm's background logging worker if it runs on this event loop, before the loop closes.

        The worker is a litellm global bound to the loop of the first call; a loop closed under it left "Task was
        destroyed but it is pending" tracebacks on every later model of the process (benchmarks, batches, the app).
        """
        from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER  # noqa: PLC0415

        if getattr(GLOBAL_LOGGING_WORKER, "_bound_loop", None) is asyncio.get_running_loop():
            await GLOBAL_LOGGING_WORKER.stop()

    async def complete(self, request: Request, messages: list[dict[str, str]], parameters: dict) -> Completion:
        """One call through litellm.acompletion, its failures sorted into transient and permanent.

        A server that refuses the structured-output form (a 400, or llama.cpp's 500 on `json_schema`) is asked
        again at once with the next weaker form, instead of being retried to exhaustion with the same one. An answer
        that came back unreadable (envelope.py) is a transient fault, retried by the gateway, never a refusal.
        """
        while True:
            form = self.forms[0]
            try:
                response = await self.litellm.acompletion(**self._options(request, messages, parameters, form))
            except Exception as error:  # litellm raises many types; none may crash a run unexplained
                if (missing := providers.missing_library(self.model, error)) is not None:
                    raise PermanentError(missing) from None
                if unreadable_answer(error):
                    raise self._malformed(" ".join(str(error).split("Traceback")[0].split())[:160]) from None
                if form != providers.PROMPT_ONLY and providers.refuses_format(error):
                    self.forms.pop(0)
                    self.format_downgrades += 1
                    logger.warning("%s refused response_format %s (%s); using %s from now on", self.model, form,
                                   " ".join(str(error).split())[:160], self.forms[0])  # fmt: skip
                    continue
                raise self._sorted(error) from None
            try:
                return self._completion(response, form)
            except MalformedAnswer as error:
                raise self._malformed(str(error)) from None

    def _options(self, request: Request, messages: list[dict[str, str]], parameters: dict, form: str) -> dict:
        options = {
            "model": self.model,
            "messages": prepare_messages(messages, anthropic=self._anthropic, model=self.model),
            "timeout": self.timeout_s,
            "num_retries": 0,
            "max_retries": 0,
            **providers.accepted(self.model, reasoning.with_reasoning(self.model, parameters, self.reasoning_effort)),
        }
        effort_config = reasoning.output_config(self.model, self.reasoning_effort)
        options |= providers.answer_options(
            form, request.kind, request.answer_schema(), self.model, self.api_base, effort_config
        )
        options |= self._context.options(options["messages"], options.get("max_tokens"))
        if self._keys_cache:
            options["prompt_cache_key"] = prompt_cache_key(messages)
        if self.api_base:
            options["api_base"] = self.api_base
        if self._api_key:
            options["api_key"] = self._api_key
        return options

    def _malformed(self, why: str) -> MalformedAnswer:
        self.malformed_answers += 1
        return MalformedAnswer(f"model {self.model!r} sent an answer that could not be read ({why})")

    def _sorted(self, error: Exception) -> Exception:
        transient = providers.is_transient(error, self.litellm)
        line = providers.refusal_line(self.model, error, transient=transient, api_base=self.api_base)
        return TransientError(line, providers.retry_after(error)) if transient else PermanentError(line)

    def _completion(self, response, form: str) -> Completion:
        """The answer read field by field: no choice raises MalformedAnswer; a count that is not one reads 0."""
        text, finish_reason = first_choice(response)
        usage = getattr(response, "usage", None)
        prompt = count(usage, "prompt_tokens")
        completion = count(usage, "completion_tokens")
        return Completion(
            text=text,
            prompt_tokens=prompt,
            completion_tokens=completion,
            cost=self._cost(response, prompt, completion),
            cached_tokens=cached_tokens(usage),
            answer_format=form,
            reasoning_tokens=reasoning_tokens(usage),
            finish_reason=finish_reason,
        )

    def _cost(self, response, prompt: int, completion: int) -> float | None:
        if self.model in self.prices:
            per_prompt, per_completion = self.prices[self.model]
            return prompt * per_prompt + completion * per_completion
        hidden = getattr(response, "_hidden_params", None)
        if isinstance(hidden, dict) and isinstance(hidden.get("response_cost"), int | float):
            return float(hidden["response_cost"])  # litellm priced it already, with its price map
        try:
            return float(self.litellm.completion_cost(completion_response=response))
        except Exception:  # an unpriced model costs "unknown", never a crash
            logger.debug("no price known for %s", self.model)
            return None


def cached_tokens(usage) -> int:
    """Prompt tokens the provider served from its prompt cache (OpenAI's cached_tokens, Anthropic's cache reads)."""
    return detail(usage, "prompt_tokens_details", "cached_tokens") or count(usage, "cache_read_input_tokens")


def reasoning_tokens(usage) -> int:
    """Completion tokens a reasoning model spent thinking (litellm reports every provider's as OpenAI's field)."""
    return detail(usage, "completion_tokens_details", "reasoning_tokens")
