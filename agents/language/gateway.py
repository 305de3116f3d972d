"""The one gateway to language models: routing, cache, concurrency cap, retries, repair, fallback, accounting.

`ask(request, agent)` is the only way the agents reach a model. A bad answer gets one repair attempt, then the
request's safe fallback, logged with the request kind and the agent and counted. Transient failures (429, 5xx,
connection, timeout) are retried with exponential backoff up to `max_retries`, here and nowhere else; a model still
failing raises ModelUnavailable so a run stops cleanly and can resume.
"""

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.language.accounting import CallRecord, Ledger
from agents.language.backends import Backend, Completion, OfflineBackend, PermanentError, TransientError
from agents.language.backends.litellm_backend import LiteLLMBackend
from agents.language.backends.model_names import OFFLINE, check_model_name
from agents.language.backends.prompt_cache import long_prefix_pays
from agents.language.backends.reasoning import DEFAULT_EFFORT
from agents.language.backends.reasoning import LEVELS as REASONING_EFFORTS
from agents.language.cache import CachedResponse, ResponseCache, cache_key
from agents.language.journal import AnswerJournal
from agents.language.prompt_log import PromptLog
from agents.language.request import AnswerError, Request, long_prefix

logger = logging.getLogger(__name__)

# An answer cut off by its token budget is asked again once with this many times the budget.
CUT_BUDGET_FACTOR = 2
# First wait before a retry, doubled each time (with at most this many seconds between tries).
BACKOFF_S, MAX_BACKOFF_S = 0.5, 20.0
# The retry budget: seconds one call may spend waiting between its tries. A server's Retry-After is honoured within
# it (a rate limit that resets in 30 s is waited for); one asking for more ends the call at once, in one line, rather
# than holding the run for as long as the server says.
RETRY_BUDGET_S = 120.0
# Seconds within which the same retried failure is logged again only at INFO (-v): the calls of 25 agents meeting one
# dead server printed 75 identical warnings before the run's one-line error.
REPEATED_WARNING_S = 30.0


# Set while a caller that checks the budget itself is at work (a town's step, and the thoughts it starts): its asks
# are not cut off by the budget, so no step is left half done; the step may overshoot by its own calls.
_BUDGET_CHECKED_BY_CALLER: ContextVar[bool] = ContextVar("budget_checked_by_caller", default=False)


@contextmanager
def budget_checked_by_caller() -> Iterator[None]:
    """Within this block (and in the tasks started in it), `Gateway.ask` leaves the budget to the caller."""
    token = _BUDGET_CHECKED_BY_CALLER.set(True)
    try:
        yield
    finally:
        _BUDGET_CHECKED_BY_CALLER.reset(token)


# Set for a town's thought (and the tasks it starts): told of each ask, answered from the cache or not, so the town
# knows whether the thought asks a model at all without depending on when answers arrive (smallville/thinking.py).
_ON_ASK: ContextVar[Callable[[], None] | None] = ContextVar("on_ask", default=None)


@contextmanager
def asks_reported_to(report: Callable[[], None]) -> Iterator[None]:
    """Within this block (and in the tasks started in it), each `Gateway.ask` first calls `report`."""
    token = _ON_ASK.set(report)
    try:
        yield
    finally:
        _ON_ASK.reset(token)


class BudgetExceeded(RuntimeError):
    """The run's call or cost budget is spent; raised before the call that would pass it.

    Attributes:
        spent: Which budget: "calls" or "cost" (a command names the option that raises it).
    """

    def __init__(self, message: str, spent: str = "calls"):
        super().__init__(message)
        self.spent = spent

    def __reduce__(self):  # across processes (batch workers) with which budget it was
        return type(self), (str(self), self.spent)


class CacheMiss(RuntimeError):
    """Replay mode met a call the cache cannot answer."""


class ModelUnavailable(RuntimeError):
    """The model kept failing after the retries, or refused the call for good.

    Attributes:
        refused: True when the model refused for good (a 4xx: the name, the server's URL or a parameter is wrong),
            False when it kept failing (it may answer again later).
    """

    def __init__(self, message: str, refused: bool = False):
        super().__init__(message)
        self.refused = refused

    def __reduce__(self):  # across processes (batch workers) with what kind of failure it was
        return type(self), (str(self), self.refused)


@dataclass(frozen=True)
class GatewayConfig:
    """How requests reach models. Every field has a default; `model` "offline" needs no network."""

    model: str = OFFLINE
    routes: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    cache_path: Path | str | None = None
    replay: bool = False
    max_in_flight: int = 25
    timeout_s: float = 60.0
    max_retries: int = 3
    temperature: float | None = None
    api_base: str | None = None
    prices: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    max_calls: int | None = None
    max_cost: float | None = None
    # Send each request's answer schema to providers that can enforce it (False: the prompt alone asks for JSON).
    structured: bool = True
    # How much a reasoning model reasons (backends/reasoning.py: the nearest level each model takes).
    reasoning_effort: str = DEFAULT_EFFORT

    def __post_init__(self) -> None:
        for name in (self.model, *self.routes.values()):
            if name != OFFLINE and "/" not in name:
                raise ValueError(f"model {name!r}: use 'offline' or a litellm name such as 'openai/gpt-5.4-mini'")
        if self.max_in_flight < 1 or self.max_retries < 0 or self.timeout_s <= 0:
            raise ValueError("max_in_flight must be >= 1, max_retries >= 0 and timeout_s > 0")
        if self.replay and self.cache_path is None:
            raise ValueError("replay needs a cache: give cache_path")
        if self.reasoning_effort not in REASONING_EFFORTS:
            raise ValueError(
                f"reasoning_effort must be one of {', '.join(REASONING_EFFORTS)}, got {self.reasoning_effort!r}"
            )

    def model_for(self, kind: str) -> str:
        """The model a request kind is routed to."""
        return self.routes.get(kind, self.model)


class Gateway:
    """Sends typed requests to the configured models and keeps the accounts."""

    def __init__(self, config: GatewayConfig | None = None, backends: Mapping[str, Backend] | None = None):
        self.config = config or GatewayConfig()
        self.ledger = Ledger()
        self.cache = ResponseCache(Path(self.config.cache_path)) if self.config.cache_path else None
        # A run folder's answers since its last checkpoint (agents/language/journal.py), set by the run's writer.
        self.journal: AnswerJournal | None = None
        self._backends: dict[str, Backend] = dict(backends or {})
        self._semaphore: asyncio.Semaphore | None = None
        self._semaphore_loop = None
        self._warned: dict[str, float] = {}  # a retried failure's text: when it was last logged as a warning
        self.prompt_log: PromptLog | None = None  # set to keep every prompt and answer (prompt_log.py)
        self._long_prefix: dict[str, bool] = {}  # a model: whether its requests start with the long prefix

    def backend(self, model: str) -> Backend:
        """The backend of a model name, built on first use."""
        if model not in self._backends:
            if model == OFFLINE:
                self._backends[model] = OfflineBackend(self.config.seed)
            else:
                self._backends[model] = LiteLLMBackend(
                    model,
                    api_base=self.config.api_base,
                    timeout_s=self.config.timeout_s,
                    prices=self.config.prices,
                    structured=self.config.structured,
                    reasoning_effort=self.config.reasoning_effort,
                )
        return self._backends[model]

    def get_state(self) -> dict:
        """What a checkpoint keeps of the gateway beyond its ledger.

        The long prefixes the offline mind has sent (what a provider's cache would hold), so that a resumed run counts
        cached tokens as the uninterrupted one did.
        """
        offline = self._backends.get(OFFLINE)
        return {"sent_prefixes": sorted(offline.sent_prefixes) if isinstance(offline, OfflineBackend) else []}

    def set_state(self, state: dict) -> None:
        """Restore `get_state`'s data."""
        if state.get("sent_prefixes"):
            backend = self.backend(OFFLINE)
            if isinstance(backend, OfflineBackend):
                backend.sent_prefixes = set(state["sent_prefixes"])

    async def ask(self, request: Request, agent: str) -> Any:
        """The answer to a request: parsed, repaired once if needed, else the request's fallback."""
        with long_prefix(self._caches_long_prefix(self.config.model_for(request.kind))):
            return await self._ask(request, agent)

    def _caches_long_prefix(self, model: str) -> bool:
        """Whether the model's requests start with the long system prefix (its provider caches it, and that pays)."""
        if model not in self._long_prefix:
            self._long_prefix[model] = model == OFFLINE or long_prefix_pays(model)
        return self._long_prefix[model]

    async def _ask(self, request: Request, agent: str) -> Any:
        model = self.config.model_for(request.kind)
        if (report := _ON_ASK.get()) is not None:
            report()
        if not _BUDGET_CHECKED_BY_CALLER.get():
            self.check_budget()
        started = time.perf_counter()
        parameters = {
            "temperature": request.temperature if self.config.temperature is None else self.config.temperature,
            "max_tokens": request.max_tokens,
            "seed": self.config.seed,
        }
        tally = _Tally()
        completion = await self._whole(model, request, request.messages(), parameters, agent, tally)
        repaired = fallback = False
        try:
            answer = request.parse(completion.text)
        except AnswerError as error:
            repaired = True
            logger.info("%s: %s answer for %s did not parse (%s); asking once more", model, request.kind, agent, error)
            messages = request.repair_messages(completion.text, str(error))
            completion = await self._whole(model, request, messages, parameters, agent, tally)
            try:
                answer = request.parse(completion.text)
            except AnswerError as second:
                fallback = True
                answer = request.fallback()
                logger.warning(
                    "%s: %s answer for %s failed twice (%s); using the fallback", model, request.kind, agent, second
                )
        self.ledger.record(
            CallRecord(
                agent=agent,
                kind=request.kind,
                model=model,
                calls=tally.calls,
                prompt_tokens=tally.prompt_tokens,
                completion_tokens=tally.completion_tokens,
                latency_s=time.perf_counter() - started,
                cost=tally.cost,
                cache_hit=tally.calls == 0,
                retries=tally.retries,
                repaired=repaired,
                fallback=fallback,
                cached_tokens=tally.cached_tokens,
                answer_format=completion.answer_format,
                reasoning_tokens=tally.reasoning_tokens,
                empty_answers=tally.unfinished["empty"],
                cut_answers=tally.unfinished["cut"],
            )
        )
        return answer

    async def ask_all(self, asks: Sequence[tuple[Request, str]]) -> list[Any]:
        """Several requests at once (under the in-flight cap); answers in the same order."""
        return list(await asyncio.gather(*(self.ask(request, agent) for request, agent in asks)))

    async def _whole(self, model, request, messages, parameters, agent, tally) -> Completion:
        """A completion, asked once more if it came back empty or cut off by its token budget.

        A reasoning model that thought too long leaves either; a cut answer is asked again with twice the budget, and
        both are counted. A second such answer goes on to the parser, which sends it to the repair.
        """
        completion = await self._complete(model, request, messages, parameters, agent, tally)
        if (unfinished := completion.unfinished) is None:
            return completion
        tally.unfinished[unfinished] += 1
        if unfinished == "cut" and parameters.get("max_tokens"):
            parameters = {**parameters, "max_tokens": parameters["max_tokens"] * CUT_BUDGET_FACTOR}
        logger.info("%s: %s answer for %s came back %s; asking again", model, request.kind, agent, unfinished)
        return await self._complete(model, request, messages, parameters, agent, tally)

    async def _complete(self, model, request, messages, parameters, agent, tally) -> Completion:
        completion = await self._answer(model, request, messages, parameters, agent, tally)
        if self.prompt_log is not None:
            source = "cache" if completion.answer_format == "cache" else "model"
            self.prompt_log.write(agent=agent, kind=request.kind, model=model, source=source, parameters=parameters,
                                  messages=messages, answer=completion.text)  # fmt: skip
        return completion

    async def _answer(self, model, request, messages, parameters, agent, tally) -> Completion:
        key = cache_key(model, messages, parameters) if self.cache is not None else None
        if key is not None and (hit := self.cache.get(key)) is not None:
            return Completion(hit.text, hit.prompt_tokens, hit.completion_tokens, 0.0, answer_format="cache")
        journal = self.journal if model != OFFLINE else None  # offline answers are free and always the same
        if journal is not None:
            key = key or cache_key(model, messages, parameters)
            if (kept := journal.take(key)) is not None:
                tally.add(kept.completion)
                tally.retries += kept.retries
                return kept.completion
        if self.config.replay:
            raise CacheMiss(f"replay: no cached answer for a {request.kind} request of {agent} to {model}")
        backend = self.backend(model)
        retries = tally.retries
        async with self._cap():
            completion = await self._with_retries(backend, request, messages, parameters, tally)
        tally.add(completion)
        if journal is not None:
            journal.keep(key, completion, tally.retries - retries)
        if self.cache is not None and completion.unfinished is None:  # a cache must not replay a cut-off answer
            self.cache.put(
                key,
                model,
                request.kind,
                CachedResponse(completion.text, completion.prompt_tokens, completion.completion_tokens),
            )
        return completion

    async def _with_retries(self, backend, request, messages, parameters, tally) -> Completion:
        wait, waited = BACKOFF_S, 0.0
        for attempt in range(self.config.max_retries + 1):
            try:
                return await backend.complete(request, messages, parameters)
            except TransientError as error:
                if attempt == self.config.max_retries:
                    raise ModelUnavailable(
                        f"{backend.name} failed {attempt + 1} times on {request.kind}: {error}"
                    ) from None
                asked = getattr(error, "retry_after", None)
                pause = max(wait, asked) if asked is not None else wait
                if waited + pause > RETRY_BUDGET_S:
                    said = f"asked to wait {asked:.0f} s" if asked is not None else f"would wait {pause:.0f} s more"
                    raise ModelUnavailable(
                        f"{backend.name} {said} before trying {request.kind} again, more than the "
                        f"{RETRY_BUDGET_S - waited:.0f} s left of a call's retry budget: {error}"
                    ) from None
                tally.retries += 1
                logger.log(self._retry_level(str(error)), "%s: %s (try %d of %d); retrying in %.1f s%s", backend.name,
                           error, attempt + 1, self.config.max_retries + 1, pause,
                           " as the server asked" if asked is not None and asked >= wait else "")  # fmt: skip
                await asyncio.sleep(pause)
                waited += pause
                wait = min(wait * 2, MAX_BACKOFF_S)
            except PermanentError as error:
                raise ModelUnavailable(f"{error} ({request.kind} request)", refused=True) from None
        raise AssertionError("unreachable")

    def _retry_level(self, failure: str) -> int:
        """WARNING for a failure not logged in the last REPEATED_WARNING_S seconds, INFO for its repeats."""
        now = time.monotonic()
        if now - self._warned.get(failure, -REPEATED_WARNING_S) < REPEATED_WARNING_S:
            return logging.INFO
        self._warned[failure] = now
        return logging.WARNING

    def _cap(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._semaphore_loop is not loop:
            self._semaphore = asyncio.Semaphore(self.config.max_in_flight)
            self._semaphore_loop = loop
        return self._semaphore

    def check_budget(self) -> None:
        """Raise BudgetExceeded if the calls or the cost allowed are spent."""
        totals = self.ledger.totals()
        if self.config.max_calls is not None and totals.calls >= self.config.max_calls:
            raise BudgetExceeded(f"the budget of {self.config.max_calls} model calls is spent", "calls")
        if self.config.max_cost is not None and totals.cost >= self.config.max_cost:
            raise BudgetExceeded(f"the budget of ${self.config.max_cost:.2f} is spent (${totals.cost:.2f})", "cost")

    async def aclose(self) -> None:
        """Let the backends release what runs on the event loop, before the loop closes."""
        for backend in self._backends.values():
            if hasattr(backend, "aclose"):
                await backend.aclose()

    def close(self) -> None:
        """Close the cache and the prompt log."""
        if self.cache is not None:
            self.cache.close()
        if self.prompt_log is not None:
            self.prompt_log.close()


@dataclass
class _Tally:
    """What the model calls of one request added up to."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float | None = 0.0
    retries: int = 0
    unfinished: dict[str, int] = field(default_factory=lambda: {"empty": 0, "cut": 0})

    def add(self, completion: Completion) -> None:
        self.calls += 1
        self.reasoning_tokens += completion.reasoning_tokens
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        self.cached_tokens += completion.cached_tokens
        self.cost = None if self.cost is None or completion.cost is None else self.cost + completion.cost


def check_models(model: str, routes: Mapping[str, str] | None = None, api_base: str | None = None) -> None:
    """`check_model_name` for a run's model and for every model its routes send a request kind to, in that order.

    Raises:
        ValueError: For the first of them that is wrong.
    """
    for name in dict.fromkeys([model, *(routes or {}).values()]):
        check_model_name(name, api_base=api_base)
