"""The labelled answers: a set a reader wrote, and the offline judge's precision and recall on it (>= 0.9)."""

import asyncio
from collections import Counter

import pytest

from agents.language.gateway import Gateway, GatewayConfig
from smallville.evaluation import EvaluationError
from smallville.evaluation.labelled import judge_labelled_set, load_labelled

KINDS = {"paraphrase", "partial", "hedge", "guess", "curiosity", "negation", "denial", "wrong_detail", "other_fact",
         "idiom", "sighting"}  # fmt: skip


def test_the_set_holds_300_answers_of_every_kind():
    labelled = load_labelled()
    kinds = Counter(answer.kind for item in labelled.sets for answer in item.answers)
    assert labelled.size() >= 300 and set(kinds) == KINDS
    assert all(count >= 10 for count in kinds.values())


def test_the_offline_judge_reaches_09_precision_and_recall_on_fact_check_and_grounding():
    gateway = Gateway(GatewayConfig(model="offline"))
    scores = judge_labelled_set(lambda request: gateway.ask(request, agent="judge"), load_labelled())
    for score in (scores.fact_check, scores.grounding):
        assert score.precision >= 0.9 and score.recall >= 0.9, score.text()
    assert scores.answers == gateway.ledger.totals().calls / 2  # a fact check and a grounding per answer


def test_a_judge_that_says_yes_to_everything_is_caught():
    async def always_yes(request):
        await asyncio.sleep(0)
        return True if request.kind == "fact_check" else tuple(range(len(request.memories)))

    scores = judge_labelled_set(always_yes, load_labelled())
    assert scores.fact_check.recall == 1.0 and scores.fact_check.precision < 0.5
    assert scores.grounding.precision < 0.7


def test_a_broken_set_names_the_field(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[sets]]\nid = "x"\nfact = "f"\nspeaker = "s"\nquestion = "q"\n'
                    'memories = [{text = "m", supports = true}]\n'
                    'answers = [{text = "a", shows = true, kind = "paraphrase", shown = [2]}]\n')  # fmt: skip
    with pytest.raises(EvaluationError, match=r"bad.toml: field 'sets.0': .*memory 2 is not in the pool"):
        load_labelled(path)
