"""Each interview-time condition hides exactly what it should, and never changes the run's own memory."""

from datetime import timedelta

import pytest

from memory import NodeKind, RetrievalWeights
from smallville.evaluation import CONDITIONS, Condition, register, visible_stream
from smallville.evaluation.conditions import resolve

from .streams import EMBED, START, hand_built

EVERY = ["event", "chat", "plan", "learned", "reflection"]
SHOWN = {
    "full": EVERY,
    "no_reflection": ["event", "chat", "plan", "learned"],
    "no_reflection_planning": ["event", "chat", "learned"],
    "persona_only": [],
}


def _label(node) -> str:
    if node.kind == NodeKind.THOUGHT:
        return "plan" if node.predicate == "plan" else "learned"
    return str(node.kind)


@pytest.mark.parametrize("name", list(SHOWN), ids=list(SHOWN))
def test_condition_hides_exactly_its_kinds(name):
    visible = visible_stream(hand_built(), CONDITIONS[name])
    assert [_label(node) for node in visible] == SHOWN[name]


def test_a_kept_reflection_keeps_only_visible_evidence():
    hide_chats = Condition("no_chat", "no chats", (lambda node: node.kind == NodeKind.CHAT,))
    visible = visible_stream(hand_built(), hide_chats)
    reflection = next(node for node in visible if node.kind == NodeKind.REFLECTION)
    assert [visible.node(i).description for i in reflection.evidence_ids] == ["Maria Lopez is studying at the library"]


def test_until_cuts_the_memory_at_the_evaluated_time():
    visible = visible_stream(hand_built(), CONDITIONS["full"], until=START + timedelta(minutes=15))
    assert [_label(node) for node in visible] == ["event", "chat"]


def test_retrieval_on_a_view_leaves_the_run_memory_untouched():
    stream = hand_built()
    before = [stream.last_accessed(i) for i in range(len(stream))]
    view = visible_stream(stream, CONDITIONS["no_reflection"])
    view.retrieve(EMBED.embed(["concert"])[0], now=START + timedelta(days=1), k=3, touch=False)
    view.retrieve(EMBED.embed(["concert"])[0], now=START + timedelta(days=1), k=3)
    assert [stream.last_accessed(i) for i in range(len(stream))] == before


def test_a_user_condition_can_be_added_and_chosen():
    register(Condition("only_chats", "only talks", (lambda node: node.kind != NodeKind.CHAT,)))
    try:
        (condition,) = resolve(["only_chats"])
        assert [_label(node) for node in visible_stream(hand_built(), condition)] == ["chat"]
    finally:
        CONDITIONS.pop("only_chats")
    with pytest.raises(KeyError, match="unknown condition 'only_chats'"):
        resolve(["only_chats"])


def test_a_condition_with_other_retrieval_weights_is_named_on_the_command_line():
    (condition,) = resolve(["no_reflection@original"])
    assert condition.weights == RetrievalWeights.original() and condition.hides == CONDITIONS["no_reflection"].hides
    assert condition.paper_mu is None  # the paper has no figure for it
    with pytest.raises(KeyError, match="retrieval weights '1,2'"):
        resolve(["full@1,2"])
