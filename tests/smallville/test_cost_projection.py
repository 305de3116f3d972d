"""What a run costs before it is spent: the progress bar's projection, and `--max-cost` stopping a step ahead."""

import io
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest
from rich.console import Console

from agents import BudgetExceeded
from smallville.progress import step_with_progress
from smallville.runs.stopping import CostProjection

START = datetime(2023, 2, 13)
DAY_END = START + timedelta(days=1)


@dataclass
class PricedTown:
    """A town whose steps cost what it is told: the ledger's total grows by each step's price."""

    prices: list[float]
    max_cost: float | None = None
    now: datetime = START
    start: datetime = START
    seconds_per_step: int = 10
    thoughts: list = field(default_factory=list)
    spent: float = 0.0

    def __post_init__(self):
        totals = SimpleNamespace(calls=0, prompt_tokens=0, completion_tokens=0)
        self.gateway = SimpleNamespace(
            config=SimpleNamespace(max_cost=self.max_cost),
            ledger=SimpleNamespace(totals=lambda: SimpleNamespace(**vars(totals), cost=self.spent)),
        )

    def step(self):
        self.spent += self.prices.pop(0)
        self.now += timedelta(seconds=self.seconds_per_step)


def test_the_projection_carries_the_rate_so_far_to_the_runs_end():
    projection = CostProjection(START, DAY_END)
    assert projection.projected(START + timedelta(hours=6), 1.0) == pytest.approx(4.0)
    assert projection.projected(START, 0.5) == 0.5  # nothing to go by yet: what was spent
    assert projection.projected(DAY_END, 3.0) == 3.0


def test_max_cost_stops_between_steps_before_the_one_that_could_pass_it():
    town = PricedTown(prices=[0.3] * 10, max_cost=1.0)
    console = Console(file=io.StringIO(), force_terminal=False)
    with pytest.raises(BudgetExceeded) as stopped:
        step_with_progress(town, START + timedelta(minutes=10), console)
    assert stopped.value.spent == "cost"
    assert town.spent == pytest.approx(0.9) and town.now == START + timedelta(seconds=30)  # three steps, not four
    assert "$1.00 would be passed by the next step" in str(stopped.value)


def test_without_a_budget_the_run_goes_to_its_end_and_the_bar_shows_the_projection():
    town = PricedTown(prices=[0.01] * 30)
    out = io.StringIO()
    step_with_progress(town, START + timedelta(minutes=5), Console(file=out, force_terminal=True, width=220))
    assert town.now == START + timedelta(minutes=5)
    # $0.30 in 5 minutes of a run that ends there: the projection is what was spent.
    assert "$0.30" in out.getvalue() and "($0.30 by the end)" in out.getvalue()
