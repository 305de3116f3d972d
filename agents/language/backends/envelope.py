"""Reading a provider's answer defensively: any answer, however malformed, is either read or retried, never a crash.

A proxy, a half-compatible server or a provider's bad moment can send an answer whose envelope is broken: an empty
`choices` list (or Anthropic's empty content, Gemini's empty candidates), a choice without a message, or a `usage`
block whose counts are not numbers. litellm converts most answers itself and, when it cannot, raises an error of its
own ("Invalid response object", with its traceback in the text) under HTTP status 500 or 422, as if the server had
refused the call. Such an answer is a fault of that one answer: retried like a 5xx and counted, and never taken for
the provider refusing the structured-output form (a traceback of the conversion mentions "response_format" too).
"""

from typing import Any

from agents.language.backends.base import TransientError

# What litellm says when it could not convert an answer the server sent (its own words, any provider).
UNREADABLE_MARKS = (
    "invalid response object",
    "empty or invalid response from llm endpoint",
    "error converting to valid response block",
    "provider returned 'choices'",
    "argument after ** must be a mapping",
)


class MalformedAnswer(TransientError):
    """An answer came back but its envelope could not be read (no choices, no message, a broken usage block)."""


def unreadable_answer(error: BaseException) -> bool:
    """Whether a litellm error means the server answered and litellm could not read the answer.

    Its own conversion failures carry one of UNREADABLE_MARKS, or a Python traceback through litellm's code.
    """
    text = str(error).lower()
    if any(mark in text for mark in UNREADABLE_MARKS):
        return True
    return "traceback (most recent call last)" in text and "litellm" in text


def first_choice(response: Any) -> tuple[str, str]:
    """The answer's text and finish reason, from its first choice.

    Raises:
        MalformedAnswer: For an answer with no choice or a choice with no message.
    """
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list | tuple) or not choices:
        raise MalformedAnswer("the answer had no choices (an empty 'choices' list)")
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        raise MalformedAnswer("the answer's first choice had no message")
    content = getattr(message, "content", None)
    if isinstance(content, list):  # content parts, as some servers send them
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    text = content if isinstance(content, str) else ""
    reason = getattr(choice, "finish_reason", None)
    return text, reason if isinstance(reason, str) and reason else "stop"


def count(block: Any, *names: str) -> int:
    """The first of a usage block's counts that is a whole number >= 0 (0 where none is: a broken block counts 0)."""
    if block is None:
        return 0
    for name in names:
        value = block.get(name) if isinstance(block, dict) else getattr(block, name, None)
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float) and value >= 0:
            return int(value)
        if isinstance(value, str) and value.isdigit():
            return int(value)
    return 0


def usage_of(response: Any) -> Any:
    """The answer's usage block, or None."""
    return getattr(response, "usage", None)


def detail(usage: Any, block: str, name: str) -> int:
    """A count inside one of the usage block's detail blocks (prompt_tokens_details.cached_tokens...), else 0."""
    if usage is None:
        return 0
    inner = usage.get(block) if isinstance(usage, dict) else getattr(usage, block, None)
    return count(inner, name)
