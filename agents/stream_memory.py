"""Our memory stream behind mesa-llm's Memory interface, so a plain mesa-llm LLMAgent can use it as its memory.

It lives in agents/ rather than memory/ because mesa-llm's Memory base class imports litellm; the memory layer
itself stays free of language models.
"""

import json
from collections.abc import Callable
from datetime import datetime

from mesa_llm.memory.memory import Memory

from memory import Embedder, MemoryStream, NodeKind

# Observations a mesa-llm agent adds are mundane unless the caller says otherwise.
DEFAULT_IMPORTANCE = 1
RECENT_IN_PROMPT = 20


class StreamMemory(Memory):
    """A mesa-llm Memory whose entries are nodes of a MemoryStream (console display off)."""

    def __init__(
        self,
        agent,
        stream: MemoryStream,
        embedder: Embedder,
        clock: Callable[[], datetime] | None = None,
    ):
        super().__init__(agent=agent, llm_model=None, display=False)
        self.stream = stream
        self.embedder = embedder
        self.clock = clock or (lambda: getattr(agent.model, "now", datetime(2023, 2, 13)))

    def add_to_memory(self, type: str, content: dict) -> None:
        """Store an entry as a node at once (messages as chats, the rest as events), and in the step buffer."""
        super().add_to_memory(type, content)
        importance = int(content.get("importance", DEFAULT_IMPORTANCE)) if isinstance(content, dict) else 1
        text = content.get("text") or content.get("message") or json.dumps(content, default=str, ensure_ascii=False)
        kind = NodeKind.CHAT if type == "message" else NodeKind.EVENT
        self.stream.add(
            kind,
            f"{type}: {text}",
            created=self.clock(),
            importance=min(10, max(1, importance)),
            embedding=self.embedder.embed([str(text)])[0],
            keywords=(type,),
            partner=str(content.get("sender")) if kind == NodeKind.CHAT and content.get("sender") else None,
        )

    def get_prompt_ready(self) -> str:
        """The newest memories, oldest first, one a line."""
        nodes = list(reversed(self.stream.recent(RECENT_IN_PROMPT)))
        return "\n".join(f"[{node.created:%Y-%m-%d %H:%M}] {node.description}" for node in nodes)

    def get_communication_history(self) -> str:
        """Every chat, oldest first."""
        chats = [node for node in self.stream if node.kind == NodeKind.CHAT]
        return "\n".join(f"[{node.created:%Y-%m-%d %H:%M}] {node.description}" for node in chats)

    def process_step(self, pre_step: bool = False) -> None:
        """Entries are stored as they arrive; the step buffer is cleared after the step."""
        if not pre_step:
            self.step_content = {}
