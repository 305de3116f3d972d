"""The one way cognition talks to a model: `ask(request) -> answer`, bound to the agent it is asked for."""

from collections.abc import Awaitable, Callable
from typing import Any

from agents.language.request import Request

type Ask = Callable[[Request[Any]], Awaitable[Any]]
