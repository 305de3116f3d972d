"""Scoring importance (the paper's section 4.1): queued memories rated by a request the agent makes anyway.

Perceived events and a talk's memories wait in the agent's queue until rated. Most of the time they ride along on
the agent's next request that shows its persona (a reaction, a line of talk, a decomposition, a place for its next
actions: requests/riding.py); a stand-alone importance call, several memories at once, is made only for memories no
request carried in time (the queue full or old) and for what must be scored at once (seeds, whispers).
"""

import logging
from collections.abc import Sequence
from typing import Any

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.identity import Identity
from agents.language.request import Request
from agents.language.requests import ImportanceRequest, Scored, ScoredRequest
from agents.language.requests.scoring import MOST_MEMORIES

logger = logging.getLogger(__name__)


async def score_importance(ask: Ask, identity: Identity, texts: Sequence[str]) -> list[int]:
    """Importance 1-10 of each text, asked in chunks of at most what one importance request accepts."""
    scores: list[int] = []
    for start in range(0, len(texts), MOST_MEMORIES):
        chunk = tuple(texts[start : start + MOST_MEMORIES])
        scores.extend(await ask(ImportanceRequest(identity=identity, memories=chunk)))
    return scores


def known_importance(memory: AgentMemory, texts: Sequence[str]) -> dict[str, int]:
    """The importance the agent already gave each of these texts, where it holds a memory worded the same (newest).

    The same event seen again ("Maria Lopez is studying") is worth to the agent what it was worth before; asking
    again would cost a rating and tokens for the same answer.
    """
    newest = memory.newest_by_text()
    return {text: newest[text].importance for text in texts if text in newest}


async def settle_known(memory: AgentMemory) -> None:
    """Store at once the queued memories worded like one the agent holds, with that one's importance (no call)."""
    known = known_importance(memory, [pending.description for pending in memory.pending])
    if known:
        chosen = [pending for pending in memory.pending if pending.description in known]
        await memory.store(chosen, [known[pending.description] for pending in chosen])


def to_rate(texts: Sequence[str], known: dict[str, int]) -> tuple[str, ...]:
    """The texts that need a rating: unknown ones, each once."""
    return tuple(dict.fromkeys(text for text in texts if text not in known))


async def settle_pending(ask: Ask, identity: Identity, memory: AgentMemory) -> None:
    """Score the memories waiting in the queue (those worded like one it holds from that one) and store them."""
    if memory.pending:
        texts = [pending.description for pending in memory.pending]
        rated = known_importance(memory, texts)
        asked = to_rate(texts, rated)
        if asked:
            rated.update(zip(asked, await score_importance(ask, identity, asked), strict=True))
        await memory.settle([rated[text] for text in texts])


async def settle_oldest(memory: AgentMemory, count: int, scores: Sequence[int]) -> None:
    """Store the `count` oldest queued memories with their scores; the rest stay queued."""
    await memory.store(memory.pending[:count], scores)


class ScoringRider:
    """An `ask` for one thought: its first request that shows the persona also rates the queued memories.

    Args:
        ask: The agent's plain ask.
        name: The agent's name (the ratings are "to" it).
        memory: Its memories, whose queue the rider empties.
    """

    def __init__(self, ask: Ask, name: str, memory: AgentMemory):
        self._ask = ask
        self._name = name
        self._memory = memory
        self._riding = False

    async def __call__(self, request: Request[Any]) -> Any:
        """The answer to `request`, the queued memories rated on the way if it can carry them."""
        if self._riding or not self._memory.pending or not _can_carry(request):
            return await self._ask(request)
        batch = tuple(pending.description for pending in self._memory.pending[:MOST_MEMORIES])
        rated = known_importance(self._memory, batch)
        asked = to_rate(batch, rated)
        if not asked:  # all seen before: stored now, and the request goes alone
            await settle_oldest(self._memory, len(batch), [rated[text] for text in batch])
            return await self._ask(request)
        self._riding = True
        try:
            scored: Scored = await self._ask(ScoredRequest(inner=request, name=self._name, memories=asked))
        finally:
            self._riding = False
        if scored.scores is not None and tuple(p.description for p in self._memory.pending[: len(batch)]) == batch:
            rated.update(zip(asked, scored.scores, strict=True))
            await settle_oldest(self._memory, len(batch), [rated[text] for text in batch])
        return scored.answer


def _can_carry(request: Request[Any]) -> bool:
    """Whether a request may carry ratings: it has an answer model and shows the agent's persona."""
    if isinstance(request, ImportanceRequest | ScoredRequest) or request.answer_model is None:
        return False
    return "persona" in request.fields()
