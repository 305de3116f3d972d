"""Every tunable of an agent's mind in one typed record, with where its value comes from.

The same names are the SmallvilleModel's keyword arguments, the CLI's flags and the Solara controls.
"""

from dataclasses import dataclass, field

from memory import RetrievalWeights


@dataclass(frozen=True)
class MindConfig:
    """Parameters and ablation switches of the agents' cognition.

    Attributes:
        planning: Plan the day recursively (off: the paper's no-planning condition; each hour the agent only
            decides what to do next from its current situation).
        reflection: Reflect when enough important things happened (off: never reflects).
        observation: Store perceived events as memories (off: the agent still sees where it walks).
        retrieval_weights: Recency, relevance and importance weights (paper: 1/1/1; original code: 0.5/3/2).
        reflection_threshold: Importance since the last reflection that triggers one; None uses each persona's
            value (250 in the 25-agent data; the paper says 150).
        vision_radius: Tiles seen in each direction (the 25-agent data: 8).
        attention_bandwidth: Nearest perceived events attended to per step (the 25-agent data: 8).
        retention: Newest events checked to decide whether an event is new (the 25-agent data: 8).
        retrieval_count: Memories retrieved per focal point (the original: 30 for reflection).
        conversation_memories: Memories retrieved for each conversation line (the original: 15).
        max_conversation_lines: Lines after which a talk ends (the original: 8 rounds of 2).
        chat_cooldown_steps: Steps before the same pair may talk again (the original: 800, about 2 h 13 min).
        reaction_cooldown_minutes: Minutes before an agent reconsiders reacting to the same person after deciding
            not to (ours: the original asks again on every new event of that person, a large share of its calls).
        pause_after_reaction_minutes: Minutes an agent considers no one else after deciding on a reaction (ours).
        pause_after_talk_minutes: Minutes an agent starts no talk after finishing one (ours; without it the offline
            baseline talks to everyone it passes).
        importance_batch_size: Perceived events scored together in one importance call (ours; the original: 1).
        importance_batch_minutes: Longest a perceived event waits to be scored (ours).
        reflection_questions: Questions per reflection (paper: 3).
        insights_per_question: Insights per question (paper: 5).
    """

    planning: bool = True
    reflection: bool = True
    observation: bool = True
    retrieval_weights: RetrievalWeights = field(default_factory=RetrievalWeights.paper)
    reflection_threshold: int | None = None
    vision_radius: int = 8
    attention_bandwidth: int = 8
    retention: int = 8
    retrieval_count: int = 30
    conversation_memories: int = 15
    max_conversation_lines: int = 16
    chat_cooldown_steps: int = 800
    reaction_cooldown_minutes: int = 180
    pause_after_reaction_minutes: int = 15
    pause_after_talk_minutes: int = 60
    importance_batch_size: int = 20
    importance_batch_minutes: int = 60
    reflection_questions: int = 3
    insights_per_question: int = 5
