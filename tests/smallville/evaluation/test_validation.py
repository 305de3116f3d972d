"""The fact check out of sample: the held-out part of the pipeline's labelled answers, scored as it comes."""

import asyncio

import pytest

from agents.language.gateway import Gateway, GatewayConfig
from smallville.evaluation.validation import (
    PipelineSet,
    cohen_kappa,
    load_pipeline_set,
    proportion_interval,
    score_parts,
)


def test_the_parts_are_disjoint_and_provenance_only_ever_says_no():
    labelled = load_pipeline_set()
    development, held_out = labelled.part("development"), labelled.part("held_out")
    assert len(development) >= 60 and len(held_out) >= 60
    assert not {item.id for item in development} & {item.id for item in held_out}
    # The offline mind says the same things in other seeds: the held-out answers also found in development are
    # known (30 of 72, 24 of them "I don't know" by provenance), and figures are reported without them too.
    assert len(labelled.unseen("held_out")) == len(held_out) - 30
    assert all(not item.shows for item in labelled.answers if item.label == "provenance")  # never exposed: cannot know
    assert {item.origin for item in held_out} >= {"offline run, seed 1", "language-model style, written by hand"}


def test_the_offline_fact_check_on_the_held_out_part_keeps_its_first_measured_figures():
    """Measured once, when the part was first scored (precision 0.939, recall 1.000 on 72 answers); a floor, never a
    target to tune to: docs/evaluation.md reports the figures with their intervals."""
    gateway = Gateway(GatewayConfig(model="offline", cache_path=None))
    labelled = load_pipeline_set()
    only = PipelineSet(answers=labelled.part("held_out"))
    held_out = score_parts(lambda request: gateway.ask(request, agent="judge"), only)["held_out"]
    assert held_out.score.precision >= 0.93 and held_out.score.recall >= 0.99, held_out.text()
    low, high = held_out.precision_interval
    assert low < held_out.score.precision <= high
    assert 0.9 < held_out.kappa <= 1.0


def test_a_judge_that_says_yes_to_everything_is_caught_out_of_sample():
    async def always_yes(request):
        await asyncio.sleep(0)
        return tuple(True for _ in request.items())

    held_out = score_parts(always_yes, load_pipeline_set())["held_out"]
    assert held_out.score.recall == 1.0 and held_out.score.precision < 0.5


def test_agreement_and_intervals():
    assert cohen_kappa([True, False, True, False], [True, False, True, False]) == 1.0
    assert cohen_kappa([True, True, False, False], [True, False, True, False]) == pytest.approx(0.0)
    low, high = proportion_interval(31, 33)
    assert low == pytest.approx(0.7977, abs=1e-3) and high == pytest.approx(0.9926, abs=1e-3)
    assert proportion_interval(0, 0) == (0.0, 1.0)
