"""The paper's interview-time ablations (section 6.2), declared in one place.

Every condition interviews the same agent with the memory of the same full run; it only hides some memories from
retrieval at interview time (and may retrieve with other weights). This is not the run-level `--no-planning`,
`--no-reflection`, `--no-observation` switches, which re-simulate the town without a component: another experiment.
A user adds a condition with `register` (or a line in CONDITIONS).
"""

from collections.abc import Callable
from dataclasses import dataclass

from memory import MemoryNode, MemoryStream, NodeKind, RetrievalWeights

# How planning stores a plan: a thought whose predicate is "plan" (agents/cognition/planning.py).
PLAN_PREDICATE = "plan"


def is_reflection(node: MemoryNode) -> bool:
    """A reflection node (the paper's higher-level insights)."""
    return node.kind == NodeKind.REFLECTION


def is_plan(node: MemoryNode) -> bool:
    """A plan: a thought stored by planning with the predicate "plan"."""
    return node.kind == NodeKind.THOUGHT and node.predicate == PLAN_PREDICATE


def is_anything(node: MemoryNode) -> bool:
    """Every memory: observations, talks, thoughts, plans and reflections."""
    del node
    return True


@dataclass(frozen=True)
class Condition:
    """One architecture of the evaluation: which memories it hides, and its retrieval weights (None: the run's).

    Attributes:
        name: Short id used in files and on the command line.
        label: How the paper's tables call it.
        hides: Predicates; a memory any of them accepts is hidden from retrieval.
        weights: Retrieval weights for this condition, e.g. RetrievalWeights.original().
        paper_mu: The paper's TrueSkill mu for this condition, if it reported one.
    """

    name: str
    label: str
    hides: tuple[Callable[[MemoryNode], bool], ...] = ()
    weights: RetrievalWeights | None = None
    paper_mu: float | None = None

    def hidden(self, node: MemoryNode) -> bool:
        """Whether this condition hides a memory."""
        return any(hide(node) for hide in self.hides)


CONDITIONS: dict[str, Condition] = {
    condition.name: condition
    for condition in (
        Condition("full", "full architecture", (), paper_mu=29.89),
        Condition("no_reflection", "no reflection", (is_reflection,), paper_mu=26.88),
        Condition("no_reflection_planning", "no reflection, no planning", (is_reflection, is_plan), paper_mu=25.64),
        Condition("persona_only", "no observation, reflection or planning", (is_anything,), paper_mu=21.21),
    )
}
# Everything the agent remembers: what claims are checked against, whichever conditions are evaluated.
EVERYTHING = CONDITIONS["full"]
# The paper's human crowdworkers (TrueSkill mu 22.95) have no condition here: there are no human answers to rank.
PAPER_HUMAN_MU = 22.95


def register(condition: Condition) -> None:
    """Add a condition (e.g. the full memory with the original code's weights) to those `evaluate` can run."""
    CONDITIONS[condition.name] = condition


def resolve(names: list[str] | None) -> list[Condition]:
    """The named conditions, in the given order (None: all the declared ones).

    "NAME@WEIGHTS" is a declared condition retrieving with other weights: "full@original" (the original code's
    0.5, 3, 2) or "full@1,2,1".

    Raises:
        KeyError: With the unknown name and the known ones, for the caller to report.
    """
    if not names:
        return list(CONDITIONS.values())
    return [_resolve_one(name) for name in names]


def _resolve_one(name: str) -> Condition:
    base, _, weights = name.partition("@")
    if base not in CONDITIONS:
        raise KeyError(f"unknown condition {base!r}; choose from: {', '.join(CONDITIONS)} (or NAME@WEIGHTS)")
    condition = CONDITIONS[base]
    if not weights:
        return condition
    try:
        parsed = RetrievalWeights.parse(weights)
    except ValueError as error:
        raise KeyError(f"condition {name!r}: {error}") from None
    return Condition(name, f"{condition.label}, weights {weights}", condition.hides, parsed)


def visible_stream(stream: MemoryStream, condition: Condition, until=None) -> MemoryStream:
    """A copy of the stream holding only what the condition shows (created by `until`, when given).

    Last-access times are kept, so recency is what the run left; ids are renumbered and a kept reflection keeps
    only the evidence that is still visible.
    """
    state = stream.get_state()
    keep = [
        index
        for index, data in enumerate(state["nodes"])
        if not condition.hidden(stream.node(index)) and (until is None or stream.node(index).created <= until)
    ]
    new_id = {old: new for new, old in enumerate(keep)}
    nodes = []
    for old in keep:
        data = dict(state["nodes"][old])
        data["id"] = new_id[old]
        data["evidence_ids"] = [new_id[i] for i in data["evidence_ids"] if i in new_id]
        nodes.append(data)
    return MemoryStream.from_state(
        {
            **state,
            "nodes": nodes,
            "accessed": state["accessed"][keep],
            "embeddings": state["embeddings"][keep].reshape(len(keep), stream.dim),
        }
    )
