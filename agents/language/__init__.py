"""The one gateway to language models: typed requests, backends, cache, routing and accounting."""

from agents.language.quoting import quote
from agents.language.request import AnswerError, Request, extract_json
from agents.language.tokens import count_tokens

__all__ = ["AnswerError", "Request", "count_tokens", "extract_json", "quote"]
