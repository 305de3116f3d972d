"""A conversation between two agents, one line per step, shared by both."""

from dataclasses import dataclass, field, replace
from datetime import datetime


@dataclass
class Conversation:
    """A talk in progress.

    Attributes:
        first: The agent who started it (it speaks first).
        second: The other agent.
        started: When it started.
        max_lines: Lines after which it ends (the original: 16).
        lines: (speaker, text) so far.
        ended: True once someone said goodbye or the line limit was reached.
        doing: What each was doing when the talk began (the original's "X was ... when X saw Y in the middle of").
    """

    first: str
    second: str
    started: datetime
    max_lines: int
    lines: list[tuple[str, str]] = field(default_factory=list)
    ended: bool = False
    doing: dict[str, str] = field(default_factory=dict)

    @property
    def speaker(self) -> str:
        """Whose turn it is."""
        return self.first if len(self.lines) % 2 == 0 else self.second

    def says_next(self, name: str) -> bool:
        """Whether `name` says the next line: the talk goes on and it is their turn."""
        return not self.ended and self.speaker == name

    def partner_of(self, name: str) -> str:
        """The other participant."""
        return self.second if name == self.first else self.first

    def add_line(self, speaker: str, text: str, end: bool) -> None:
        """Record a line; the talk ends on goodbye or at the line limit."""
        self.ended = self.would_end(end)
        self.lines.append((speaker, text))

    def would_end(self, end: bool) -> bool:
        """Whether one more line (a goodbye if `end`) ends the talk: on goodbye or at the line limit."""
        return end or len(self.lines) + 1 >= self.max_lines

    def copy(self) -> "Conversation":
        """The talk as it stands now, apart from the shared one (what a thought may read while the talk goes on)."""
        return replace(self, lines=list(self.lines), doing=dict(self.doing))

    def transcript(self) -> str:
        """The talk as text, one "Name: line" per line."""
        return "\n".join(f"{speaker}: {text}" for speaker, text in self.lines)

    def get_state(self) -> dict:
        """Plain data for checkpoints."""
        return {
            "first": self.first,
            "second": self.second,
            "started": self.started.isoformat(),
            "max_lines": self.max_lines,
            "lines": [list(line) for line in self.lines],
            "ended": self.ended,
            "doing": dict(self.doing),
        }

    @classmethod
    def from_state(cls, state: dict) -> "Conversation":
        """Rebuild a conversation saved by `get_state`."""
        return cls(
            first=state["first"],
            second=state["second"],
            started=datetime.fromisoformat(state["started"]),
            max_lines=state["max_lines"],
            lines=[tuple(line) for line in state["lines"]],
            ended=state["ended"],
            doing=dict(state.get("doing", {})),  # a checkpoint from before the field: no context kept
        )
