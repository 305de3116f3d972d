"""The one way cognition talks to a model: `ask(request) -> answer`, bound to the agent it is asked for."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from agents.language.request import Request

type Ask = Callable[[Request[Any]], Awaitable[Any]]


async def together(*steps: Awaitable[Any]) -> list[Any]:
    """Run steps of a thought that need nothing from each other at once: their calls share a round of latency.

    If one fails the others are cancelled before the error goes on, so nothing of a failed thought keeps running.
    (The town waits for the thoughts due at a step the same way: smallville/thinking.py.)
    """
    tasks = [asyncio.ensure_future(step) for step in steps]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
