"""Restoring a town: no model call is spent on seeding a model whose state a checkpoint replaces, every call made
is accounted, and Mesa's own step count and time agree with the run's."""

from datetime import datetime

import pytest

from smallville.cli import main
from smallville.model import SmallvilleModel


def test_a_model_built_for_a_restore_makes_no_model_call():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    assert model.gateway.ledger.totals().calls == 0
    assert all(len(agent.memories.stream) == 0 for agent in model.people)
    model.close()


def test_a_fresh_model_scores_its_seeds():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing")
    assert model.gateway.ledger.totals().calls == len(model.people)  # one importance call per persona's seeds
    model.close()


@pytest.mark.slow  # runs the town to 01:12
def test_after_a_restore_mesa_steps_and_time_agree_with_the_run_and_keep_agreeing():
    first = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seconds_per_step=60)
    first.run_until(datetime(2023, 2, 13, 1, 12))
    assert (first.steps, first.time) == (72, 72.0)
    second = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seconds_per_step=60, seed_memories=False)
    second.set_state(first.get_state())
    assert (second.step_count, second.steps, second.time) == (72, 72, 72.0)
    for _ in range(3):
        second.step()
    assert (second.step_count, second.steps, second.time) == (75, 75, 75.0)
    assert second.now == datetime(2023, 2, 13, 1, 15)


@pytest.mark.slow
def test_resume_interview_and_whisper_never_seed_memories(tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    base = ["--scenario", "the_ville_n3", "--embedder", "hashing", "--out", str(run)]
    assert main(["simulate", "--until", "2023-02-13T01:00", *base]) == 0

    def refuse(self):
        raise AssertionError("a restored model scored its seeds again")

    monkeypatch.setattr(SmallvilleModel, "_seed_memories", refuse)
    assert main(["interview", str(run), "Klaus Mueller", "What are you doing today?"]) == 0
    assert "Klaus Mueller:" in capsys.readouterr().out
    assert main(["whisper", str(run), "Klaus Mueller", "You are going to run for mayor"]) == 0
    assert main(["resume", str(run)]) == 0
