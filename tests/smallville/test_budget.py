"""The budget is checked between steps: a spent budget stops the town before a step, never inside one, so the run
stopped by it is a prefix of the unbudgeted run and goes on exactly when resumed with more budget."""

from datetime import datetime, timedelta

import pytest

from agents import BudgetExceeded
from smallville.model import SmallvilleModel

OPTIONS = {"scenario_name": "the_ville_n3", "embedder": "hashing", "thinking_steps": 2}


@pytest.mark.slow  # runs the town until its budget is spent (the budget rule alone, fast: test_gateway.py)
@pytest.mark.parametrize("calls", [12, 40])
def test_a_spent_budget_stops_the_town_between_two_steps(calls):
    budgeted = SmallvilleModel(**OPTIONS, max_calls=calls)
    with pytest.raises(BudgetExceeded, match=f"{calls} model calls"):
        budgeted.run_until(datetime(2023, 2, 14, 0, 0))
    spent = budgeted.gateway.ledger.totals().calls
    assert spent >= calls  # the step that crossed the budget finished its calls
    state = budgeted.get_state()  # what a checkpoint would keep: thoughts in flight finished, not cut

    free = SmallvilleModel(**OPTIONS)
    while free.step_count < budgeted.step_count:
        free.step()
    assert free.event_log == budgeted.event_log
    assert free.gateway.ledger.totals().calls == budgeted.gateway.ledger.totals().calls

    resumed = SmallvilleModel(**OPTIONS, seed_memories=False)
    resumed.set_state(state)
    logged = len(free.event_log)
    for model in (free, resumed):
        model.run_until(max(budgeted.now, datetime(2023, 2, 13, 7, 0)) + timedelta(hours=2))
    assert resumed.event_log == free.event_log[logged:] and resumed.event_log
    for model in (budgeted, free, resumed):
        model.close()
