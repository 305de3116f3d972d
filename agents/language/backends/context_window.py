"""Ollama's context window, sized to the longest prompt sent so far, so no prompt is cut without a word.

Ollama runs a model with a context of its own default size (2,048 tokens in litellm's note of Ollama's options, 4,096
in Ollama's newer releases) unless a request sets `num_ctx`, and a longer prompt is cut from the front, silently: the
persona and the task go first. A town's prompts reach several thousand tokens. Each request sets `num_ctx` to hold
its prompt and its answer budget, rounded up to a power of two and never smaller than any sent before: Ollama
reloads a model whenever `num_ctx` changes, so the window only grows, a few times per run at most.
"""

from agents.language.backends.base import estimate_tokens

# Providers whose context window a request sets (Ollama's `num_ctx`).
SIZED_PROVIDERS = frozenset({"ollama", "ollama_chat"})
# The smallest window asked for: Ollama's newer default, so a short first prompt does not shrink a model's context.
SMALLEST_WINDOW = 4096
# Tokens added to the estimate of a prompt, for the model's own template (roles, special tokens) and the estimate's
# error against the model's tokenizer.
TEMPLATE_ROOM = 256


class ContextWindow:
    """The `num_ctx` to send a model: grows to the longest prompt plus its answer, never shrinks."""

    def __init__(self, model: str):
        self.sized = model.partition("/")[0] in SIZED_PROVIDERS
        self.tokens = 0

    def options(self, messages: list[dict], max_tokens: int | None) -> dict[str, int]:
        """{"num_ctx": n} for a model whose window a request sets, else {}."""
        if not self.sized:
            return {}
        needed = sum(estimate_tokens(_text(message.get("content"))) for message in messages)
        needed += (max_tokens or 0) + TEMPLATE_ROOM
        window = max(SMALLEST_WINDOW, self.tokens)
        while window < needed:
            window *= 2
        self.tokens = window
        return {"num_ctx": window}


def _text(content) -> str:
    """A message's text, whether a string or a list of text blocks (a cache breakpoint's form)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content or [] if isinstance(block, dict))
