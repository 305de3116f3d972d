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
(gpt-5-mini "minimal", gpt-5.4-mini "none", o4-mini "low", Claude no thinking, Gemini its least). Gemini 3 models
get no temperature: Google advises against setting one, and litellm warns at every call that sends it.
"""

import logging
from functools import cache
from typing import Any

from agents.language.backends.litellm_import import import_litellm

logger = logging.getLogger(__name__)

LEVELS = ("none", "minimal", "low", "medium", "high")
DEFAULT_EFFORT = "minimal"
# Tokens of reasoning allowed for on top of the answer's own budget, per effort, where litellm sets no budget itself
# (OpenAI's chat API: reasoning tokens count against max_completion_tokens; its guide advises reserving far more for
# high efforts).
REASONING_ROOM = {"none": 0, "minimal": 1024, "low": 4096, "medium": 8192, "high": 16384}
# Levels a family takes when litellm's map says nothing: OpenAI's o-series take low to high only; Claude's thinking
# starts at litellm's "low" budget (its "minimal" is the same 1,024 tokens), and "none" leaves thinking off.
UNSTATED = {
    "openai": frozenset({"low", "medium", "high"}),
    "azure": frozenset({"low", "medium", "high"}),
    "anthropic": frozenset({"none", "low", "medium", "high"}),
}


@cache
def accepted_levels(model: str) -> tuple[str, ...]:
    """The effort levels a model takes, lowest first; () for a model litellm does not know to reason."""
    litellm = import_litellm()
    provider, _, name = model.partition("/")
    try:
        if not litellm.supports_reasoning(model=name, custom_llm_provider=provider):
            return ()
        info = litellm.get_model_info(model)
    except Exception:  # not in litellm's map: not known to reason
        return ()
    unstated = UNSTATED.get(provider, frozenset(LEVELS))
    stated = {level: info.get(f"supports_{level}_reasoning_effort") for level in LEVELS}
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
    provider = model.partition("/")[0]
    if not (provider == "anthropic" and effort == "none"):  # Claude: "none" is thinking left off
        sent["reasoning_effort"] = effort
    # Asked without a temperature first: litellm warns of a Gemini 3 temperature even when only asked what it maps.
    mapped = _mapped(model, effort, None)
    # Dropped: Claude's with thinking on; Gemini 3's (a thinking level: Google advises leaving its sampling alone, and
    # litellm warns at every call); a value litellm would refuse.
    leveled = "thinking" in mapped or "thinkingLevel" in (mapped.get("thinkingConfig") or {})
    if "temperature" in sent and (leveled or _mapped(model, effort, sent["temperature"]).get("temperature") is None):
        _log_dropped_temperature(model, sent.pop("temperature"), effort)
    if sent.get("max_tokens"):
        sent["max_tokens"] += _room(mapped, effort)
    return sent


@cache
def _mapped(model: str, effort: str, temperature: float | None) -> dict[str, Any]:
    """What litellm would send the provider for an effort and a temperature (values it refuses dropped)."""
    provider, _, name = model.partition("/")
    asked = {"temperature": temperature} if temperature is not None else {}
    sent = {} if provider == "anthropic" and effort == "none" else {"reasoning_effort": effort}
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
