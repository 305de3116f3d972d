"""Our memory stream behind mesa-llm's Memory interface, so a plain mesa-llm LLMAgent can use it as its memory.

It lives in agents/ rather than memory/ because mesa-llm's Memory base class imports litellm (3+ s); the memory
layer itself stays free of language models. mesa-llm imports litellm itself, so litellm is imported first here,
through `import_litellm`, with the settings it needs (its local cost map) and nothing else writing them.
"""

import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from agents.language.backends.litellm_import import import_litellm
from memory import Embedder, MemoryNode, MemoryStream, NodeKind, RetrievalWeights, Retrieved

import_litellm()  # before mesa-llm imports litellm its own way
from mesa_llm.memory.memory import Memory  # noqa: E402 - after import_litellm

if TYPE_CHECKING:
    from mesa_llm.llm_agent import LLMAgent

# mesa-llm does not score its entries; they are mundane (1 on the paper's 1-10 scale) unless the content gives an
# "importance".
DEFAULT_IMPORTANCE = 1
# How many of the newest memories get_prompt_ready shows (mesa-llm's short-term memory keeps 5; a stream is richer).
RECENT_IN_PROMPT = 20
# How many memories retrieved for the focal point get_prompt_ready shows (the original retrieves 30 for a decision).
RECALLED_IN_PROMPT = 10
# mesa-llm's entry type for messages between agents (LLMAgent.send_message).
MESSAGE = "message"


class StreamMemory(Memory):
    """A mesa-llm Memory whose entries become nodes of a MemoryStream at once; console display is off.

    Args:
        agent: The agent the memory belongs to.
        stream: The stream that holds the memories.
        embedder: Embeds each entry's text.
        clock: The simulated time to stamp entries with; by default the model's `now` attribute.
        weights: Retrieval weights for `recall` (the paper's 1/1/1 by default).
    """

    def __init__(
        self,
        agent: "LLMAgent",
        stream: MemoryStream,
        embedder: Embedder,
        clock: Callable[[], datetime] | None = None,
        weights: RetrievalWeights | None = None,
    ):
        super().__init__(agent=agent, llm_model=None, display=False)
        if embedder.dim != stream.dim:
            raise ValueError(
                f"embedder {embedder.name!r} makes {embedder.dim}-d vectors; the stream holds {stream.dim}"
            )
        self.stream = stream
        self.embedder = embedder
        self.clock = clock or self._model_time
        self.weights = weights or RetrievalWeights.paper()
        self.focal_point: str | None = None

    def _model_time(self) -> datetime:
        now = getattr(getattr(self.agent, "model", None), "now", None)
        if not isinstance(now, datetime):
            raise TypeError("StreamMemory needs the simulated time: pass clock=..., or give the model a `now` datetime")
        return now

    def add_to_memory(self, type: str, content: dict) -> None:
        """Keep the entry in mesa-llm's step buffer and store it as a node now (messages as chats, others as events).

        Raises:
            TypeError: If content is not a dict (mesa-llm's rule).
            ValueError: If content["importance"] is not 1-10.
        """
        super().add_to_memory(type, content)
        importance = content.get("importance", DEFAULT_IMPORTANCE)
        if type == MESSAGE:
            self._add_message(content, importance)
            return
        text = content.get("text") or json.dumps(
            {key: value for key, value in content.items() if key != "importance"}, default=str, ensure_ascii=False
        )
        self._store(NodeKind.EVENT, f"{type}: {text}", text, importance, keywords=(type,))

    def _add_message(self, content: dict, importance: int) -> None:
        text = str(content.get("message", ""))
        sender = str(content.get("sender", "someone"))
        recipients = content.get("recipients")
        partner = ", ".join(str(r) for r in recipients) if recipients is not None else sender
        self._store(
            NodeKind.CHAT,
            f"{sender} says: {text}",
            text,
            importance,
            subject=sender,
            predicate="says",
            object=text,
            keywords=(MESSAGE, sender, *(str(r) for r in recipients or ())),
            partner=partner,
            lines=((sender, text),),
        )

    def _store(self, kind: NodeKind, description: str, text: str, importance: int, **details) -> None:
        """Store a node stamped with the clock's time, its vector that of `text` (the entry without its framing)."""
        embedding = self.embedder.embed([text])[0]
        self.stream.add(kind, description, created=self.clock(), importance=importance, embedding=embedding, **details)

    def recall(self, query: str, k: int = RECALLED_IN_PROMPT) -> list[Retrieved]:
        """The paper's retrieval: the k memories best by recency, relevance to `query` and importance.

        This is what mesa-llm's own memories lack (their retrieval has no relevance); retrieved memories count as
        accessed, as the paper's do.
        """
        if len(self.stream) == 0:
            return []
        vector = self.embedder.embed([query])[0]
        return self.stream.retrieve(vector, now=self.clock(), k=k, weights=self.weights)

    def focus(self, query: str | None) -> None:
        """Set what the agent is about to decide on; get_prompt_ready then leads with the memories relevant to it."""
        self.focal_point = query

    def get_prompt_ready(self) -> str:
        """The memories relevant to the focal point (if one is set), then the newest, one a line with its time."""
        recent = _lines(reversed(self.stream.recent(RECENT_IN_PROMPT)))
        if not self.focal_point:
            return recent
        relevant = _lines(item.node for item in self.recall(self.focal_point))
        return f"Relevant memories:\n{relevant}\nRecent memories:\n{recent}"

    def get_communication_history(self) -> str:
        """Every chat, oldest first, one a line with its time."""
        return _lines(reversed(self.stream.recent(len(self.stream), kinds=[NodeKind.CHAT])))

    def process_step(self, pre_step: bool = False) -> None:
        """Entries are stored as they arrive, so a step only clears mesa-llm's step buffer once it ends."""
        if not pre_step:
            self.step_content = {}


def _lines(nodes: Iterable[MemoryNode]) -> str:
    return "\n".join(f"[{node.created:%Y-%m-%d %H:%M}] {node.description}" for node in nodes)
