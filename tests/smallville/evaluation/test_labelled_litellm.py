"""A judge named by litellm is measured on the labelled set through the real path (a loopback server answering)."""

import json

import pytest

from agents.language.gateway import Gateway, GatewayConfig
from smallville.evaluation.labelled import judge_labelled_set, load_labelled
from testing import LoopbackServer, loopback_server


def _always_yes(messages):
    """A judge that says every answer shows its fact, and that the first memory shown supports it."""
    prompt = messages[-1]["content"]
    if prompt.startswith("Task: check whether an answer shows a fact"):
        return json.dumps({"reason": "it says so", "shows": True})
    assert prompt.startswith("Task: check which memories support")
    return json.dumps({"reason": "the first", "supported_by": [1]})


@pytest.mark.slow
def test_any_litellm_judge_is_scored_on_the_labelled_set(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    monkeypatch.setattr(loopback_server, "answer_for_messages", _always_yes)
    labelled = load_labelled()
    shows = sum(answer.shows for item in labelled.sets for answer in item.answers)
    with LoopbackServer() as server:
        gateway = Gateway(GatewayConfig(model="openai/judge", api_base=server.url))
        scores = judge_labelled_set(lambda request: gateway.ask(request, agent="judge"), labelled)
        assert server.stats.requests == 2 * labelled.size()
    assert scores.fact_check.recall == 1.0
    assert scores.fact_check.precision == pytest.approx(shows / labelled.size())
    first_supports = sum(
        item.memories[answer.shown[0] - 1].supports for item in labelled.sets for answer in item.answers
    )
    assert scores.memories.true_positive == first_supports
