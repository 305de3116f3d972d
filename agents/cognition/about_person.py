"""What an agent recalls about a person: what it knows of them first, anything else only if it bears on the moment.

The paper's social behaviour comes from what a mind is shown before it decides to talk to someone and what to say:
the memories retrieved for that person. Retrieved by score alone, they were mostly the agent's own routine (in a
3-agent morning, "what Isabella Rodriguez remembers about Klaus Mueller" was ten memories of her own breakfast and
work). So the memories retrieved on the person's name (as many as the original's relationship summary reads: 50)
are split: those that involve the person (name them, are a talk with them, a thought about them) come first, best
score first; other memories follow only while slots are left and only if relevant to the moment (normalized
relevance at least `RELEVANCE_FLOOR`), so no slot is padded with unrelated routine. Memories filed under the
person's name that the retrieval did not reach fill any slot left before the unrelated ones do.
"""

import re
from collections.abc import Sequence
from datetime import datetime

from agents.agent_memory import AgentMemory
from memory import MemoryNode, RetrievalWeights, Retrieved

# How many memories are retrieved for each focal point before choosing (the original's relationship summary: 50).
WIDE_RETRIEVAL = 50
# A memory that does not involve the person is shown only if its relevance to a focal point (min-max normalized
# over the stream, 0-1) reaches this: at least half-way from the least to the most relevant memory.
RELEVANCE_FLOOR = 0.5


def involves(node: MemoryNode, person: str) -> bool:
    """Whether a memory involves a person: a talk with them, filed under their name, or naming them."""
    if person in (node.partner, node.object, node.subject) or person.lower() in node.keywords:
        return True
    first = person.split(maxsplit=1)[0]
    return re.search(rf"\b(?:{re.escape(person)}|{re.escape(first)})\b", node.description) is not None


def person_first(
    retrieved: Sequence[Sequence[Retrieved]], person: str, k: int, filed: Sequence[MemoryNode] = ()
) -> list[str]:
    """At most k texts: those involving the person by score, then `filed` ones, then relevant others by score."""
    ranked = sorted((item for result in retrieved for item in result), key=lambda item: -item.score)
    about = [item.node.description for item in ranked if involves(item.node, person)]
    about += [node.description for node in filed]
    others = [item.node.description for item in ranked if item.relevance >= RELEVANCE_FLOOR]
    return list(dict.fromkeys([*about, *others]))[:k]


async def recall_about(
    memory: AgentMemory,
    person: str,
    focal_points: Sequence[str],
    *,
    now: datetime,
    k: int,
    weights: RetrievalWeights,
) -> list[str]:
    """The texts shown about a person (see the module's docstring): what involves them first, at most k."""
    retrieved = await memory.retrieve(focal_points, now=now, k=max(k, WIDE_RETRIEVAL), weights=weights)
    shown = person_first(retrieved, person, k, filed=memory.stream.about(person)[:k])
    kept = set(shown)  # the inspector shows what the mind was shown, not all that was read
    memory.last_retrieved = [item for result in retrieved for item in result if item.node.description in kept]
    return shown
