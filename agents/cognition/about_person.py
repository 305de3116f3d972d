"""What an agent recalls about a person: what it knows of them first, anything else only if it bears on the moment.

The paper's social behaviour comes from what a mind is shown before it decides to talk to someone and what to say:
the memories retrieved for that person. Retrieved by score alone, they were mostly the agent's own routine (in a
3-agent morning, "what Isabella Rodriguez remembers about Klaus Mueller" was ten memories of her own breakfast and
work). So the memories retrieved on the person's name and the moment (as many as the original's relationship summary
reads: 50) are split: those that involve the person (name them, are a talk with them, a thought about them) come
first, best score first, and memories filed under the person's name that the retrieval did not reach after them.
Other memories follow, best score first, only if they bear on the moment: relevant to it, or weighty (normalized
relevance or importance at least `FLOOR`), so no slot is padded with unrelated routine. A line of talk keeps a third
of its slots for them when there are any (`TALK_SHARE`), so what is on the speaker's mind (news to pass on) is not
crowded out by all it knows of the partner; a reaction, which is about the person, keeps none.
"""

import re
from collections.abc import Sequence
from datetime import datetime

from agents.agent_memory import AgentMemory
from memory import MemoryNode, RetrievalWeights, Retrieved

# How many memories are retrieved for each focal point before choosing (the original's relationship summary: 50).
WIDE_RETRIEVAL = 50
# A memory that does not involve the person is shown only if its relevance to a focal point or its importance (each
# min-max normalized over the stream, 0-1) reaches this: at least half-way from the least to the most.
FLOOR = 0.5
# The share of a talk line's slots kept for memories that do not involve the partner but bear on the moment.
TALK_SHARE = 1 / 3


def involves(node: MemoryNode, person: str) -> bool:
    """Whether a memory involves a person: a talk with them, filed under their name, or naming them."""
    if person in (node.partner, node.object, node.subject) or person.lower() in node.keywords:
        return True
    first = person.split(maxsplit=1)[0]
    return re.search(rf"\b(?:{re.escape(person)}|{re.escape(first)})\b", node.description) is not None


def bears_on_moment(item: Retrieved) -> bool:
    """Whether a retrieved memory is relevant to the moment or weighty, not routine padding (see `FLOOR`)."""
    return item.relevance >= FLOOR or item.importance >= FLOOR


def person_first(
    retrieved: Sequence[Sequence[Retrieved]],
    person: str,
    k: int,
    filed: Sequence[MemoryNode] = (),
    others_share: float = 0.0,
) -> list[str]:
    """At most k texts: those involving the person by score, then `filed` ones, then others bearing on the moment.

    A share of the slots (`others_share`) goes to the others when there are that many; slots neither fills stay
    empty.
    """
    ranked = sorted((item for result in retrieved for item in result), key=lambda item: -item.score)
    about = [item.node.description for item in ranked if involves(item.node, person)]
    about = list(dict.fromkeys([*about, *(node.description for node in filed)]))
    others = [item.node.description for item in ranked if bears_on_moment(item)]
    others = [text for text in dict.fromkeys(others) if text not in set(about)]
    kept_for_others = min(len(others), int(k * others_share))
    shown = about[: k - kept_for_others]
    return shown + others[: k - len(shown)]


async def recall_about(
    memory: AgentMemory,
    person: str,
    focal_points: Sequence[str],
    *,
    now: datetime,
    k: int,
    weights: RetrievalWeights,
    others_share: float = 0.0,
) -> list[str]:
    """The texts shown about a person (see the module's docstring): what involves them first, at most k."""
    retrieved = await memory.retrieve(focal_points, now=now, k=max(k, WIDE_RETRIEVAL), weights=weights)
    shown = person_first(retrieved, person, k, filed=memory.stream.about(person)[:k], others_share=others_share)
    kept = set(shown)  # the inspector shows what the mind was shown, not all that was read
    memory.last_retrieved = [item for result in retrieved for item in result if item.node.description in kept]
    return shown
