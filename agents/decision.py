"""What an agent's thinking in one step asks of the town, applied by the model in a fixed order."""

from dataclasses import dataclass

from agents.language.answers import ConversationSummary, ConversationTurn


@dataclass
class Decision:
    """The intents of one agent for one step; everything else it decided concerns only itself.

    Attributes:
        talk_to: Start a conversation with this agent (if both are still free when applied).
        line: The line it says in its conversation.
        summary: The summary of its finished conversation (the initiator summarizes for both).
    """

    talk_to: str | None = None
    line: ConversationTurn | None = None
    summary: ConversationSummary | None = None
