"""`run.py simulate`: run the town for some simulated time, with a progress bar and a summary at the end."""

import argparse
import time
from datetime import datetime, timedelta

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from smallville.options import model_kwargs


def run(args: argparse.Namespace) -> int:
    """Build the model, step it to the end time with a progress bar, print the summary."""
    from smallville.model import SmallvilleModel  # noqa: PLC0415 - heavy: mesa, mesa-llm, litellm

    console = Console(stderr=True)
    started = time.perf_counter()
    with console.status("loading the town (map, personas, seeded memories)..."):
        model = SmallvilleModel(**model_kwargs(args))
    end = datetime.fromisoformat(args.until) if args.until else model.now + timedelta(days=args.days)
    try:
        step_until(model, end, console)
    finally:
        model.close()
    print_summary(model, time.perf_counter() - started, Console())
    return 0


def step_until(model, end: datetime, console: Console) -> None:
    """Step with a rich progress bar: simulated time, steps per second, calls, tokens, cost."""
    total = max(1, int((end - model.now).total_seconds() // model.seconds_per_step))
    columns = (
        TextColumn("[bold]{task.fields[clock]}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TextColumn("{task.fields[rate]} steps/s"),
        TextColumn("{task.fields[calls]} calls, {task.fields[tokens]} tokens, ${task.fields[cost]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("simulating", total=total, clock="", rate="0", calls=0, tokens=0, cost="0.00")
        started, done = time.perf_counter(), 0
        while model.now < end:
            model.step()
            done += 1
            if done % 30 == 0 or model.now >= end:
                totals = model.gateway.ledger.totals()
                progress.update(
                    task,
                    completed=done,
                    clock=f"{model.now:%a %b %d %H:%M}",
                    rate=f"{done / (time.perf_counter() - started):.0f}",
                    calls=totals.calls,
                    tokens=totals.prompt_tokens + totals.completion_tokens,
                    cost=f"{totals.cost or 0:.2f}",
                )


def print_summary(model, wall_seconds: float, console: Console) -> None:
    """The end-of-run table: calls, tokens and cost by request kind, and the wall time."""
    by_kind = model.gateway.ledger.by_kind()
    table = Table(title=f"Model calls ({model.gateway.config.model}), {len(model.people)} agents")
    for column in ("request", "calls", "per agent", "tokens", "cost $", "fallbacks"):
        table.add_column(column, justify="right" if column != "request" else "left")
    people = max(1, len(model.people))
    for kind, totals in sorted(by_kind.items()):
        table.add_row(
            kind,
            str(totals.calls),
            f"{totals.calls / people:.1f}",
            str(totals.prompt_tokens + totals.completion_tokens),
            f"{totals.cost or 0:.4f}",
            str(totals.fallbacks),
        )
    totals = model.gateway.ledger.totals()
    table.add_row(
        "all",
        str(totals.calls),
        f"{totals.calls / people:.1f}",
        str(totals.prompt_tokens + totals.completion_tokens),
        f"{totals.cost or 0:.4f}",
        str(totals.fallbacks),
        style="bold",
    )
    console.print(table)
    console.print(f"simulated until {model.now:%Y-%m-%d %H:%M} in {wall_seconds:.1f} s of wall time")
