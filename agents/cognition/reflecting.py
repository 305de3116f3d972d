"""Reflecting (the paper's section 4.2): questions from recent memories, insights citing their evidence.

Two calls: the questions, then one request for the insights of all of them, each question with the memories
retrieved for it and each insight rated for importance in the same answer (the original: one call per question,
then one per insight to rate it).

Fires when the importance of what happened since the last reflection passes the threshold. Each insight is stored
as a reflection node pointing at the node ids it cites; an insight citing an id the agent does not hold is dropped
and logged, never stored with a dangling citation.
"""

import logging
from datetime import datetime

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.cognition.scoring import score_importance
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.requests import InsightsRequest, ReflectionQuestionsRequest
from memory import MemoryNode, NodeKind

logger = logging.getLogger(__name__)


def reflection_due(memory: AgentMemory, threshold: int) -> bool:
    """Whether enough importance has gathered since the last reflection."""
    return memory.stream.importance_since_reflection >= threshold


async def reflect(
    ask: Ask, identity: Identity, memory: AgentMemory, now: datetime, config: MindConfig
) -> list[MemoryNode]:
    """Reflect once: ask questions, retrieve for each, ask for the insights of all, store them with their evidence."""
    recent = [node for node in memory.stream.recent(config.reflection_statements) if "is idle" not in node.description]
    # Each text once: the same routine event seen ten times is one statement, not ten lines of the prompt.
    statements = tuple(dict.fromkeys(node.description for node in recent)) or (f"{identity.name} went about the day.",)
    questions = await ask(
        ReflectionQuestionsRequest(identity=identity, statements=statements, n=config.reflection_questions)
    )
    retrieved = await memory.retrieve(
        list(questions), now=now, k=config.retrieval_count, weights=config.retrieval_weights
    )
    # Memories worded alike are shown once, under the id of the best retrieved of them.
    first_id = {}
    for item in (item for items in retrieved for item in items):
        first_id.setdefault(item.node.description, item.node.id)
    asked = tuple(
        (question, tuple(dict.fromkeys(first_id[item.node.description] for item in items)))
        for question, items in zip(questions, retrieved, strict=True)
        if items
    )
    shown = {node_id: text for text, node_id in first_id.items()}
    answer = ()
    if asked:
        request = InsightsRequest(
            identity=identity, questions=asked, memories=tuple(shown.items()), n=config.insights_per_question
        )
        answer = await ask(request)
    insights = []
    for insight in answer:
        missing = [node_id for node_id in insight.evidence_ids if node_id not in memory.stream]
        if missing or not insight.evidence_ids:
            logger.warning(
                "%s: insight %r dropped: it cites ids %s it does not hold", identity.name, insight.text, missing
            )
            continue
        insights.append(insight)
    unrated = [insight.text for insight in insights if insight.importance is None]
    rated = iter(await score_importance(ask, identity, unrated) if unrated else ())
    stored = []
    for insight in insights:
        stored.append(
            await memory.add(
                NodeKind.REFLECTION,
                insight.text,
                created=now,
                importance=insight.importance if insight.importance is not None else next(rated),
                evidence_ids=insight.evidence_ids,
                subject=identity.name,
                predicate="reflects",
                keywords=("reflection",),
            )
        )
    memory.stream.mark_reflected()
    return stored
