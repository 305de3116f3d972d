"""What an agent's thinking in one step asks of the town, applied by the model in a fixed order."""

from dataclasses import dataclass

from agents.language.answers import ConversationSummary, ConversationTurn


@dataclass
class Decision:
    """The intents of one agent for one step; everything else it decided concerns only itself.

    Attributes:
        talk_to: Start a conversation with this agent (if both are still free when applied).
        line: The line it says in its conversation; with `talk_to`, the line that opens the talk it starts.
        summary: The summary of its finished conversation (the initiator summarizes for both).
    """

    talk_to: str | None = None
    line: ConversationTurn | None = None
    summary: ConversationSummary | None = None

    def get_state(self) -> dict:
        """Plain data, for a checkpoint taken while the decision waits to be applied."""
        return {
            "talk_to": self.talk_to,
            "line": [self.line.line, self.line.end] if self.line else None,
            "summary": summary_state(self.summary) if self.summary else None,
        }

    @classmethod
    def from_state(cls, state: dict) -> "Decision":
        """Rebuild from `get_state`."""
        line, summary = state["line"], state["summary"]
        return cls(
            talk_to=state["talk_to"],
            line=ConversationTurn(line[0], line[1]) if line else None,
            summary=summary_from_state(summary) if summary else None,
        )


def summary_state(summary: ConversationSummary) -> dict:
    """A talk's summary as plain data."""
    return {"summary": summary.summary, "takeaways": [list(pair) for pair in summary.takeaways]}


def summary_from_state(state: dict) -> ConversationSummary:
    """Rebuild a summary from `summary_state`."""
    return ConversationSummary(state["summary"], tuple(tuple(pair) for pair in state["takeaways"]))
