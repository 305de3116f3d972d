"""Every tunable of an agent's mind in one typed record, with where its value comes from.

These fields are SmallvilleModel's keyword arguments, the CLI's flags and the Solara controls of the same names
(settings/parameters.py derives all three from here): a default is written once, in this file. Limits that belong
to a request (how many memories one importance call scores, how many actions one action call resolves) stay with
the request and are imported from it, never repeated.
"""

from dataclasses import dataclass, field

from memory import RECENCY_DECAY, RetrievalWeights

# The paper's reflection threshold (section 4.2); the 25-agent data's personas say 250 (importance_trigger_max).
PAPER_REFLECTION_THRESHOLD = 150


@dataclass(frozen=True)
class MindConfig:
    """Parameters and ablation switches of the agents' cognition.

    Attributes:
        planning: Plan the day recursively (off: the paper's no-planning condition; each hour the agent only
            decides what to do next from its current situation).
        reflection: Reflect when enough important things happened (off: never reflects).
        observation: Store perceived events as memories (off: the agent still sees where it walks).
        retrieval_weights: Recency, relevance and importance weights (paper: 1/1/1; original code: 0.5/3/2).
        recency_decay: Recency factor per simulated hour since a memory was last retrieved (paper, section 4.1).
        reflection_threshold: Importance since the last reflection that triggers one: the paper's 150, or None for
            each persona's value (250 in the 25-agent data, importance_trigger_max; the original's 3-agent base
            runs at 150). The default keeps the data's 250.
        vision_radius: Tiles seen in each direction (the 25-agent data: 8).
        attention_bandwidth: Nearest perceived events attended to per step (the 25-agent data: 8).
        retention: Newest events checked to decide whether an event is new (the 25-agent data: 8).
        retention_minutes: Minutes within which an event already remembered is not new either (ours; 0 keeps the
            original's newest-`retention` rule alone, under which a crowd's changing nearest few stored 54% of a
            25-agent day's events again within the hour).
        retrieval_count: Memories retrieved per focal point when reflecting (the original: 30).
        reflection_statements: Newest memories a reflection asks its questions about (the paper: 100).
        conversation_memories: Memories retrieved for each conversation line (the original: 15).
        conversation_focal_lines: Last lines of a talk that join the partner's name as a focal point (ours).
        conversation_focal_characters: Longest such focal point, in characters (ours).
        interview_memories: Memories retrieved to answer an interview question (the original: 50).
        reaction_memories: Memories about the other person shown when deciding on a reaction (the original: 10).
        max_conversation_lines: Lines after which a talk ends (the original: 8 rounds of 2).
        chat_cooldown_seconds: Simulated seconds before the same pair may talk again (the original: 800 steps of
            10 s, about 2 h 13 min).
        quiet_hour: The hour of the day in which nobody starts a talk (the original: 23).
        reaction_cooldown_minutes: Minutes before an agent reconsiders talking to someone it declined to talk to
            (ours: a short cool-down, so the same two passing each other all afternoon are not asked about each
            other at every change of activity; the original asks again on every new event of that person, a large
            share of its calls). A wait holds the person back only while it lasts.
        pause_after_reaction_minutes: Minutes an agent considers no one else after deciding on a reaction (ours).
        pause_after_talk_minutes: Minutes an agent starts no talk after finishing one (ours; without it the offline
            baseline talks to everyone it passes).
        shortest_wait_minutes: Shortest wait for someone busy (ours; in whole 5-minute steps, as schedules are).
        longest_wait_minutes: Longest wait for someone busy (ours).
        importance_batch_size: Queued memories that call for a stand-alone importance call when no other request
            has carried them (ours; the original: 1). Most ride along on the agent's next request instead.
        importance_batch_minutes: Longest a queued memory waits for a request to carry its rating before a
            stand-alone call (ours; at 60 most memories were scored alone, at 240 most ride along).
        reflection_questions: Questions per reflection (paper: 3).
        insights_per_question: Insights per question (paper: 5).
        plan_importance: Importance of the day's plan and summary thoughts (the original stores them at 5 rather
            than asking).
        day_summary_memories: Memories the end-of-day look back retrieves for each of its two focal points, the
            plans for tomorrow and important recent events (the original's revise_identity: 30).
    """

    planning: bool = True
    reflection: bool = True
    observation: bool = True
    retrieval_weights: RetrievalWeights = field(default_factory=RetrievalWeights.paper)
    recency_decay: float = RECENCY_DECAY
    reflection_threshold: int | None = None
    vision_radius: int = 8
    attention_bandwidth: int = 8
    retention: int = 8
    retention_minutes: int = 60
    retrieval_count: int = 30
    reflection_statements: int = 100
    conversation_memories: int = 15
    conversation_focal_lines: int = 2
    conversation_focal_characters: int = 300
    interview_memories: int = 50
    reaction_memories: int = 10
    max_conversation_lines: int = 16
    chat_cooldown_seconds: int = 8000
    quiet_hour: int = 23
    reaction_cooldown_minutes: int = 60
    pause_after_reaction_minutes: int = 15
    pause_after_talk_minutes: int = 60
    shortest_wait_minutes: int = 5
    longest_wait_minutes: int = 30
    importance_batch_size: int = 40
    importance_batch_minutes: int = 240
    reflection_questions: int = 3
    insights_per_question: int = 5
    plan_importance: int = 5
    day_summary_memories: int = 30

    def __post_init__(self) -> None:
        counts = {name: getattr(self, name) for name in POSITIVE}
        bad = [f"{name}={value!r}" for name, value in counts.items() if not isinstance(value, int) or value < 1]
        if bad:
            raise ValueError(f"mind settings must be whole numbers >= 1: {', '.join(bad)}")
        if not 0 < self.recency_decay <= 1:
            raise ValueError(f"recency_decay must be in (0, 1], got {self.recency_decay!r}")
        if not 0 <= self.quiet_hour <= 23:
            raise ValueError(f"quiet_hour must be 0-23, got {self.quiet_hour!r}")
        if self.shortest_wait_minutes > self.longest_wait_minutes:
            raise ValueError("shortest_wait_minutes must not exceed longest_wait_minutes")
        if not isinstance(self.retention_minutes, int) or self.retention_minutes < 0:
            raise ValueError(f"retention_minutes must be a whole number >= 0, got {self.retention_minutes!r}")
        if self.reflection_threshold is not None and self.reflection_threshold < 1:
            raise ValueError(f"reflection_threshold must be >= 1, got {self.reflection_threshold!r}")


# Counts and durations that only make sense as whole numbers of at least 1.
POSITIVE = (
    "vision_radius",
    "attention_bandwidth",
    "retention",
    "retrieval_count",
    "reflection_statements",
    "conversation_memories",
    "conversation_focal_lines",
    "conversation_focal_characters",
    "interview_memories",
    "reaction_memories",
    "max_conversation_lines",
    "chat_cooldown_seconds",
    "importance_batch_size",
    "importance_batch_minutes",
    "reflection_questions",
    "insights_per_question",
    "plan_importance",
    "day_summary_memories",
)
