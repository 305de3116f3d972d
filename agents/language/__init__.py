"""The one gateway to language models: typed requests, backends, cache, routing and accounting."""

from agents.language.request import AnswerError, Request, extract_json

__all__ = ["AnswerError", "Request", "extract_json"]
