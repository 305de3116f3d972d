"""`evaluate --at` an earlier time interviews each agent with the status it had then, not the last checkpoint's."""

from datetime import datetime

import pytest

from smallville.evaluation import evaluate_run, interviews
from smallville.evaluation.restore import load_model, read_event_log, rewind_status
from tests.smallville.run_folders import simulate_three

FIRST_DAY, SECOND_DAY = datetime(2023, 2, 13, 12), datetime(2023, 2, 14, 9)
AGENT = "Klaus Mueller"  # his second day starts from a new status (offline)


@pytest.fixture(scope="module")
def two_day_run(tmp_path_factory):
    return simulate_three(tmp_path_factory.mktemp("eval-at") / "run", "2023-02-14T10:00")


def _plans(log: list[dict]) -> list[str]:
    return [entry["text"] for entry in log if entry["kind"] == "plan" and entry["agent"] == AGENT]


@pytest.mark.slow
def test_status_at_a_time_is_the_one_that_days_plan_was_made_from(two_day_run):
    log = read_event_log(two_day_run)
    first, second = _plans(log)
    assert first != second  # the second day starts from a summary of the first
    model = load_model(two_day_run)
    try:
        agent = model.by_name[AGENT]
        assert agent.identity.currently == second  # the checkpoint's
        assert first == agent.persona.identity.currently
        rewind_status(model, log, FIRST_DAY)
        assert agent.identity.currently == first
        rewind_status(model, log, SECOND_DAY)
        assert agent.identity.currently == second
        rewind_status(model, log, model.start)  # the first plan is made at the start, from the persona's own
        assert agent.identity.currently == agent.persona.identity.currently
    finally:
        model.close()


@pytest.mark.slow
def test_evaluate_at_the_first_day_interviews_with_that_days_status(two_day_run, monkeypatch):
    asked = set()
    answers_from = interviews.answers_from

    async def spy(ask, identity, *args):
        asked.add(identity.currently)
        return await answers_from(ask, identity, *args)

    monkeypatch.setattr(interviews, "answers_from", spy)
    first, _ = _plans(read_event_log(two_day_run))
    evaluate_run(two_day_run, at=FIRST_DAY, agents=[AGENT], conditions=["full", "persona_only"], repeats=1)
    assert asked == {first}
