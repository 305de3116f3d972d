"""The rich progress bar and the end-of-run summary table of the CLI."""

import time
from collections.abc import Callable, Mapping
from datetime import datetime

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from smallville.baseline import OFFLINE_BASELINE, is_offline
from smallville.runs.stopping import CostProjection

# Steps between two progress updates (redrawing costs more than a quiet step).
REFRESH_EVERY = 30


def step_with_progress(
    model,
    end: datetime,
    console: Console,
    on_step: Callable[[], None] = lambda: None,
    should_stop: Callable[[], bool] = lambda: False,
) -> None:
    """Step until `end` (or until `should_stop` says so, between steps) with a progress bar.

    The bar shows the cost so far and the cost projected to `end` from the ledger; with a cost budget
    (`--max-cost`), the run stops between two steps before the one that could pass it: BudgetExceeded("cost").
    """
    total = max(1, int((end - model.now).total_seconds() // model.seconds_per_step))
    projection = CostProjection(model.start, end, model.gateway.config.max_cost)
    columns = (
        TextColumn("[bold]{task.fields[clock]}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TextColumn("{task.fields[rate]} steps/s"),
        TextColumn("{task.fields[thinking]} thinking"),
        TextColumn("{task.fields[calls]} calls, {task.fields[tokens]} tokens, ${task.fields[cost]}"),
        TextColumn("(${task.fields[projected]} by the end)"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False, disable=not console.is_terminal) as progress:
        task = progress.add_task(
            "simulating", total=total, clock="", rate="0", calls=0, tokens=0, cost="0.00", projected="0.00", thinking=0
        )
        started, done = time.perf_counter(), 0
        while model.now < end and not should_stop():
            projection.check(model.now, model.gateway.ledger.totals().cost)
            model.step()
            projection.after_step(model.gateway.ledger.totals().cost)
            on_step()
            done += 1
            if done % REFRESH_EVERY == 0 or model.now >= end:
                totals = model.gateway.ledger.totals()
                progress.update(
                    task,
                    completed=done,
                    clock=f"{model.now:%a %b %d %H:%M}",
                    rate=f"{done / (time.perf_counter() - started):.0f}",
                    calls=totals.calls,
                    tokens=totals.prompt_tokens + totals.completion_tokens,
                    cost=f"{totals.cost or 0:.2f}",
                    projected=f"{projection.projected(model.now, totals.cost or 0):.2f}",
                    thinking=len(model.thoughts),  # agents whose thought is in flight (smallville/thinking.py)
                )


def fallback_share(totals) -> float:
    """The share of answered requests that fell back to the built-in answer (0 when there were none)."""
    return totals.fallbacks / totals.requests if totals.requests else 0.0


def print_summary(model, wall_seconds: float, console: Console, first: Mapping | None = None) -> None:
    """The end-of-run tables: the town (density, news, the gathering) and the model calls by request kind.

    The "from -> to" figures start at `first`, the run's first recorded row (metrics/model.csv) when given: a
    resumed model's own DataCollector starts at the resume, where the rebuilt town showed none of its ties yet.
    """
    social = model.social
    town = Table(
        title=f"The town, {model.start:%b %d %H:%M} to {model.now:%b %d %H:%M}",
        caption="estimates from memory text and places; `run.py evaluate` measures by the paper's definitions",
    )
    town.add_column("measure")
    town.add_column("value", justify="right")
    if first is None:
        frame = model.datacollector.get_model_vars_dataframe()
        first = frame.iloc[0] if len(frame) else {}
    start_density = float(first.get("density", social.density()))
    town.add_row("relationship density (estimate)", f"{start_density:.3f} -> {social.density():.3f}")
    for fact in model.setting.facts:
        start = float(first.get(f"aware_{fact.id}", 0))
        share = f"{100 * start:.0f}% -> {100 * social.aware_share(fact.id):.0f}%"
        town.add_row(f"aware of {fact.id} (estimate)", share)
    if model.setting.gathering:
        there = ", ".join(sorted(social.attendees)) or "nobody (yet)"
        town.add_row(f"at the {model.setting.gathering.name}'s place (estimate)", there)
    talks = sum(1 for entry in model.event_log if entry["kind"] == "talk")
    town.add_row("talks (this session)", str(talks))
    console.print(town)
    if is_offline(model.gateway.config.model, model.gateway.config.routes):
        console.print(OFFLINE_BASELINE, style="italic")

    people = max(1, len(model.people))
    calls = Table(title=f"Model calls ({model.gateway.config.model}), {len(model.people)} agents")
    every = model.gateway.ledger.totals()
    # A reasoning model's thinking tokens (part of the tokens) and its empty or cut-off answers asked again.
    thinking = ("reasoning", "empty/cut") if every.reasoning_tokens or every.empty_answers + every.cut_answers else ()
    # The prompt tokens a provider served from its prompt cache (offline: would serve), part of the tokens.
    cached = ("cached",) if every.cached_tokens else ()
    for column in ("request", "calls", "per agent", "tokens", *cached, *thinking, "cost $", "retries", "repairs",
                   "fallbacks"):  # fmt: skip
        calls.add_column(column, justify="left" if column == "request" else "right")
    rows = sorted(model.gateway.ledger.by_kind().items())
    for kind, totals in [*rows, ("all", every)]:
        reasoned = (str(totals.reasoning_tokens), f"{totals.empty_answers}/{totals.cut_answers}") if thinking else ()
        calls.add_row(
            kind,
            str(totals.calls),
            f"{totals.calls / people:.1f}",
            str(totals.prompt_tokens + totals.completion_tokens),
            *((str(totals.cached_tokens),) if cached else ()),
            *reasoned,
            f"{totals.cost or 0:.4f}",
            str(totals.retries),
            str(totals.repairs),
            f"{totals.fallbacks} ({100 * fallback_share(totals):.0f}%)",
            style="bold" if kind == "all" else None,
        )
    console.print(calls)
    console.print(f"simulated until {model.now:%Y-%m-%d %H:%M} in {wall_seconds:.1f} s of wall time")
