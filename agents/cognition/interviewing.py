"""Interviews (the paper's section 6): an agent answers a question in character from what it remembers.

The answer is retrieved-memory-grounded and is not stored in the agent's memory unless the caller asks, so an
evaluation does not change the agent it evaluates.
"""

from datetime import datetime

from agents.agent_memory import AgentMemory
from agents.cognition.asking import Ask
from agents.config import MindConfig
from agents.identity import Identity
from agents.language.requests import InterviewRequest
from memory import NodeKind


async def interview(
    ask: Ask,
    identity: Identity,
    memory: AgentMemory,
    question: str,
    now: datetime,
    config: MindConfig,
    *,
    remember: bool = False,
) -> str:
    """Answer a question in character; with `remember`, keep the exchange as a chat memory (importance 5)."""
    (retrieved,) = memory.retrieve([question], now=now, k=config.interview_memories, weights=config.retrieval_weights)
    memories = tuple(item.node.description for item in retrieved) or (f"{identity.name} remembers nothing yet.",)
    answer = await ask(InterviewRequest(identity=identity, now=now, question=question, memories=memories))
    if remember:
        memory.add(
            NodeKind.CHAT,
            f"an interviewer asked {identity.name}: {question}",
            created=now,
            importance=5,
            subject="interviewer",
            predicate="asked",
            object=identity.name,
            keywords=("interview",),
            partner="interviewer",
            lines=(("interviewer", question), (identity.name, answer)),
        )
    return answer
