"""Reasoning models: how much each one reasons, which sampling values it takes, and the room its reasoning needs.

A reasoning model (OpenAI's gpt-5 and o-series, Claude with extended thinking, Gemini 2.5 and later) spends tokens on
thinking before it answers, and those tokens count against the answer's budget: a wake-up hour asked for in 20
tokens comes back empty. Each also restricts sampling: gpt-5 takes no temperature but 1 while it reasons (gpt-5.1
and later take one at effort "none"), the o-series never, Claude none with thinking on. litellm knows each model's
effort levels (its map's `supports_<level>_reasoning_effort`) and which sampling values it would refuse
(`get_optional_params`); here that knowledge picks the effort, drops a refused temperature (logged once) and widens
the budget by the reasoning's room: litellm's own thinking budget where it sets one (Claude, Gemini 2.5), else
REASONING_ROOM.

A town asks many short questions, so the default effort is "minimal": as little reasoning as each model allows
(gpt-5-mini "minimal", gpt-5.4-mini "none", o4-mini "low", Groq's gpt-oss "low", Claude no thinking on any host,
Gemini its least). A routed model (OpenRouter's "openai/...", "anthropic/...") follows its maker's rules. Gemini 3
models are sent no temperature, so they sample at their default 1.0: Google's Gemini 3 guide strongly recommends
keeping that default (lower values may loop or degrade reasoning), though the API takes one; litellm warns at every
call that sends one.
"""

import logging
from functools import cache
from typing import Any

from agents.language.backends.litellm_import import import_litellm
from agents.language.backends.providers import is_claude, routed_maker, split_model

logger = logging.getLogger(__name__)

LEVELS = ("none", "minimal", "low", "medium", "high")
DEFAULT_EFFORT = "minimal"
# Tokens of reasoning allowed for on top of the answer's own budget, per effort, where litellm sets no budget itself
# (OpenAI's chat API: reasoning tokens count against max_completion_tokens; its guide advises reserving far more for
# high efforts).
REASONING_ROOM = {"none": 0, "minimal": 1024, "low": 4096, "medium": 8192, "high": 16384}
# Levels a family takes when litellm's map says nothing: OpenAI's o-series take low to high only; Claude's thinking
# starts at litellm's "low" budget (its "minimal" is the same 1,024 tokens), and "none" leaves thinking off.
# Groq's gpt-oss models take low, medium and high only (console.groq.com/docs/reasoning: no "minimal").
UNSTATED = {
    "openai": frozenset({"low", "medium", "high"}),
    "azure": frozenset({"low", "medium", "high"}),
    "claude": frozenset({"none", "low", "medium", "high"}),
    "groq": frozenset({"low", "medium", "high"}),
}
# What a router's maker is called in litellm (OpenRouter's "anthropic/claude-haiku-4.5" is litellm's
# "anthropic/claude-haiku-4-5"), to ask litellm's map about a routed model as its maker serves it.
ROUTED_NAMES = {"openai": "openai", "anthropic": "anthropic", "google": "gemini"}


def maker_model(model: str) -> str:
    """The model as its maker serves it, for a routed one ("openrouter/openai/gpt-5-mini" -> "openai/gpt-5-mini").

    A router passes the maker's rules on (its effort levels, a temperature refused while reasoning), so they are
    looked up under the maker's name; any other model is itself.
    """
    maker = routed_maker(model)
    if maker not in ROUTED_NAMES:
        return model
    name = split_model(model)[1].partition("/")[2]
    if maker == "anthropic":
        name = name.replace(".", "-")
    return f"{ROUTED_NAMES[maker]}/{name}"


def _family(model: str) -> str:
    """The key of UNSTATED that holds a model's levels when litellm's map says nothing."""
    if is_claude(model):
        return "claude"
    provider, name = split_model(model)
    return "groq" if provider == "groq" and "gpt-oss" in name else provider


@cache
def accepted_levels(model: str) -> tuple[str, ...]:
    """The effort levels a model takes, lowest first; () for a model litellm does not know to reason."""
    litellm = import_litellm()
    family = _family(model)
    model = maker_model(model)
    provider, _, name = model.partition("/")
    try:
        if not litellm.supports_reasoning(model=name, custom_llm_provider=provider):
            return ()
        info = litellm.get_model_info(model)
    except Exception:  # not in litellm's map: not known to reason
        return ()
    unstated = UNSTATED.get(family, frozenset(LEVELS))
    stated = {level: info.get(f"supports_{level}_reasoning_effort") for level in LEVELS}
    if family == "groq":  # litellm's map says "minimal" for gpt-oss, which Groq refuses
        stated = {level: stated[level] and level in unstated for level in LEVELS}
    return tuple(level for level in LEVELS if stated[level] or (stated[level] is None and level in unstated))


def effort_for(model: str, requested: str) -> str | None:
    """The level sent for a requested effort: the nearest the model takes, the lower on a tie.

    None for a model that does not reason.
    """
    levels = accepted_levels(model)
    if not levels:
        return None
    asked = LEVELS.index(requested)
    return min(levels, key=lambda level: (abs(LEVELS.index(level) - asked), LEVELS.index(level)))


def with_reasoning(model: str, parameters: dict[str, Any], requested: str) -> dict[str, Any]:
    """The call's parameters for a model at an effort.

    The effort, the temperature only if the model takes that value, and a token budget with room for the reasoning.
    """
    effort = effort_for(model, requested)
    if effort is None:
        return dict(parameters)
    sent = dict(parameters)
    if not (is_claude(model) and effort == "none"):  # Claude (on any host): "none" is thinking left off
        sent["reasoning_effort"] = effort
    # Asked of the maker's model (a router passes its rules on), and without a temperature first: litellm warns of a
    # Gemini 3 temperature even when only asked what it maps.
    maker = maker_model(model)
    mapped = _mapped(maker, effort, None)
    # Dropped: Claude's with thinking on; Gemini 3's (a thinking level: Google's guide keeps it at its default 1.0,
    # and litellm warns at every call); a value litellm would refuse (OpenAI's reasoning models, also when routed).
    leveled = "thinking" in mapped or "thinkingLevel" in (mapped.get("thinkingConfig") or {})
    if "temperature" in sent and (leveled or _mapped(maker, effort, sent["temperature"]).get("temperature") is None):
        _log_dropped_temperature(model, sent.pop("temperature"), effort)
    if sent.get("max_tokens"):
        sent["max_tokens"] += _room(mapped, effort)
    return sent


def output_config(model: str, requested: str) -> dict[str, Any]:
    """The `output_config` litellm makes of a Claude model's effort (Claude 4.6: its `effort`), else {}.

    The answer's `output_config.format` is sent beside it, in one `output_config` (providers.answer_options).
    """
    effort = effort_for(model, requested)
    if effort is None or not is_claude(model):
        return {}
    return dict(_mapped(model, effort, None).get("output_config") or {})


@cache
def _mapped(model: str, effort: str, temperature: float | None) -> dict[str, Any]:
    """What litellm would send the provider for an effort and a temperature (values it refuses dropped)."""
    provider, _, name = model.partition("/")
    asked = {"temperature": temperature} if temperature is not None else {}
    sent = {} if is_claude(model) and effort == "none" else {"reasoning_effort": effort}
    try:
        return dict(
            import_litellm().get_optional_params(
                model=name, custom_llm_provider=provider, drop_params=True, max_tokens=1, **asked, **sent
            )
        )
    except Exception as error:  # litellm refuses the effort itself: the call will say so in one line
        logger.debug("litellm maps no parameters for %s at %s: %s", model, effort, error)
        return {"temperature": temperature}


def _room(mapped: dict[str, Any], effort: str) -> int:
    """Tokens to add for the reasoning: litellm's thinking budget (Claude, Gemini 2.5) or REASONING_ROOM."""
    thinking = mapped.get("thinking") or {}
    budget = thinking.get("budget_tokens") or (mapped.get("thinkingConfig") or {}).get("thinkingBudget")
    return int(budget) if budget else REASONING_ROOM[effort]


@cache
def _log_dropped_temperature(model: str, temperature: float, effort: str) -> None:
    logger.info("%s takes no temperature %s at reasoning effort %r; it is not sent", model, temperature, effort)
