"""Scoring importance (the paper's section 4.1): several memories in one call, never more than a request accepts."""

from collections.abc import Sequence

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.identity import Identity
from agents.language.requests import ImportanceRequest
from agents.language.requests.scoring import MOST_MEMORIES


async def score_importance(ask: Ask, identity: Identity, texts: Sequence[str]) -> list[int]:
    """Importance 1-10 of each text, asked in chunks of at most what one importance request accepts."""
    scores: list[int] = []
    for start in range(0, len(texts), MOST_MEMORIES):
        chunk = tuple(texts[start : start + MOST_MEMORIES])
        scores.extend(await ask(ImportanceRequest(identity=identity, memories=chunk)))
    return scores


async def settle_pending(ask: Ask, identity: Identity, memory: AgentMemory) -> None:
    """Score the memories waiting in the queue and store them."""
    if memory.pending:
        await memory.settle(await score_importance(ask, identity, [pending.description for pending in memory.pending]))
