"""The wire formats the loopback server speaks: OpenAI's, ollama's, Anthropic's and Gemini's.

Besides OpenAI's chat completions: ollama's /api/chat, Anthropic's /v1/messages and Gemini's generateContent.

Each format is two functions: the chat messages (OpenAI-style dicts) out of a request body, and a response body
around an answer text with its usage. Usage counts the prompt with the reference tokenizer and, like the real
servers, reports the prompt tokens a prefix cache would have served (`PrefixCache`).
"""

import bisect
import time

from agents.language import count_tokens
from agents.language.backends.prompt_cache import cached_prefix_chars, prompt_text


class PrefixCache:
    """The prompts a server has seen, to report how much of a new one a prefix cache would serve."""

    def __init__(self) -> None:
        self._seen: list[str] = []

    def cached_tokens(self, messages: list[dict]) -> int:
        """Tokens of the prompt's longest prefix shared with an earlier prompt (then remembered)."""
        text = prompt_text(messages)
        shared = cached_prefix_chars(self._seen, text)
        bisect.insort(self._seen, text)
        return count_tokens(text[:shared]) if shared else 0


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content or [] if isinstance(block, dict))


def openai_messages(body: dict) -> list[dict]:
    """OpenAI chat completions and ollama's /api/chat: the messages as sent."""
    return [{"role": m.get("role", "user"), "content": _text_of(m.get("content"))} for m in body.get("messages", [])]


def anthropic_messages(body: dict) -> list[dict]:
    """Anthropic's messages API: the system prompt is a top-level field, a string or a list of text blocks."""
    system = body.get("system")
    head = [{"role": "system", "content": _text_of(system)}] if system else []
    return head + openai_messages(body)


# Reasoning tokens the server says a model spent when the request asked for an effort (OpenAI's field).
REASONING_TOKENS = 64
# How each format says the token budget cut the answer off.
CUT_REASONS = {"openai": "length", "ollama": "length", "anthropic": "max_tokens"}


def gemini_messages(body: dict) -> list[dict]:
    """Gemini's generateContent: a system instruction apart, then contents of parts ("model" is the assistant)."""
    system = body.get("system_instruction") or body.get("systemInstruction") or {}
    head = [{"role": "system", "content": _text_of(system.get("parts"))}] if system.get("parts") else []
    roles = {"model": "assistant"}
    return head + [
        {"role": roles.get(content.get("role", "user"), "user"), "content": _text_of(content.get("parts"))}
        for content in body.get("contents", [])
    ]


def gemini_response(model: str, text: str, prompt: int, cached: int, cut: bool = False, reasoned: bool = False) -> dict:
    """Gemini's answer: thinking tokens (thoughtsTokenCount) apart from the answer's, cached ones as it reports them."""
    thought = REASONING_TOKENS if reasoned else 0
    answer = count_tokens(text)
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": text}]},
                "finishReason": "MAX_TOKENS" if cut else "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": prompt,
            "candidatesTokenCount": answer,
            "thoughtsTokenCount": thought,
            "cachedContentTokenCount": cached,
            "totalTokenCount": prompt + answer + thought,
        },
        "modelVersion": model,
    }


def openai_response(model: str, text: str, prompt: int, cached: int, cut: bool = False, reasoned: bool = False) -> dict:
    """An OpenAI chat completion, with cached prompt tokens as OpenAI reports them (and reasoning tokens, if asked)."""
    thought = REASONING_TOKENS if reasoned else 0
    completion = count_tokens(text) + thought
    return {
        "id": "loopback",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "service_tier": "default",  # OpenAI and Groq name the tier that served the call (litellm's Groq reads it)
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "length" if cut else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
            "completion_tokens_details": {"reasoning_tokens": thought},
        },
    }


def ollama_response(model: str, text: str, prompt: int, cached: int, cut: bool = False, reasoned: bool = False) -> dict:
    """The answer of ollama's /api/chat (stream false); ollama reports no cached tokens."""
    del cached, reasoned
    return {
        "model": model,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "message": {"role": "assistant", "content": text},
        "done": True,
        "done_reason": "length" if cut else "stop",
        "prompt_eval_count": prompt,
        "eval_count": count_tokens(text),
    }


def anthropic_response(
    model: str, text: str, prompt: int, cached: int, cut: bool = False, reasoned: bool = False
) -> dict:
    """Anthropic's message: input_tokens excludes the tokens read from the cache, reported apart."""
    del reasoned
    return {
        "id": "msg_loopback",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "max_tokens" if cut else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": prompt - cached,
            "output_tokens": count_tokens(text),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": cached,
        },
    }


def bedrock_messages(body: dict) -> list[dict]:
    """Bedrock's Converse API: a list of system blocks apart, then messages of content blocks."""
    system = "".join(block.get("text", "") for block in body.get("system") or [] if isinstance(block, dict))
    head = [{"role": "system", "content": system}] if system else []
    return head + openai_messages(body)


def bedrock_response(
    model: str, text: str, prompt: int, cached: int, cut: bool = False, reasoned: bool = False
) -> dict:
    """Bedrock's Converse answer: the message's content blocks, a stop reason and usage in its own names.

    A forced tool (litellm's way to get JSON from a model without Bedrock's structured outputs) is answered as a
    tool use whose input is the answer.
    """
    del model, reasoned
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "max_tokens" if cut else "end_turn",
        "usage": {
            "inputTokens": prompt - cached,
            "outputTokens": count_tokens(text),
            "totalTokens": prompt - cached + count_tokens(text),
            "cacheReadInputTokens": cached,
        },
        "metrics": {"latencyMs": 1},
    }


# Where each format keeps its choices and its usage: OpenAI, Anthropic, Gemini, ollama.
_CHOICES = ("choices", "content", "candidates", "message")
_USAGE = ("usage", "usageMetadata", "prompt_eval_count")
# A usage block of counts that are not counts, in each format's own names.
_BAD_USAGE = {
    "usage": {"prompt_tokens": "many", "completion_tokens": None, "input_tokens": "many", "output_tokens": None},
    "usageMetadata": {"promptTokenCount": "many", "candidatesTokenCount": None},
    "prompt_eval_count": "many",
}


def damaged(answer: dict, fault: str) -> dict:
    """An answer's envelope broken as a faulty server or proxy breaks it, in whichever format the answer is.

    "no_choices": the list of choices (or Anthropic's content blocks, Gemini's candidates) empty, ollama's message
    missing; "bad_usage": the usage block (or ollama's counts) replaced by values that are not counts.
    """
    broken = dict(answer)
    if fault == "no_choices":
        key = next(key for key in _CHOICES if key in broken)
        if key == "message":
            del broken[key]
        else:
            broken[key] = []
    elif fault == "bad_usage":
        key = next(key for key in _USAGE if key in broken)
        broken[key] = _BAD_USAGE[key]
    return broken
