"""`run.py evaluate RUN`: the paper's evaluation of a run folder, with a progress bar; writes RUN/evaluation/."""

import argparse
import re
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from agents import BudgetExceeded, ModelUnavailable
from smallville.baseline import is_offline
from smallville.cli import UserError
from smallville.evaluation import BatteryError, EvaluationError, evaluate_run
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import model_settings, read_config
from smallville.runs.store import RunFolderError
from smallville.settings import option_types
from smallville.settings.validation import SettingError, check_api_base


def _time(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return option_types.until(text)  # as every other --at and --until: no time zone
    except argparse.ArgumentTypeError as error:
        raise UserError(f"--at {error}") from None


def _names(text: str | None, separator: str = ",", flag: str = "--agents") -> list[str] | None:
    """Comma-separated names, each once (a name given twice would be one item counted twice, or silently one)."""
    names = [part.strip() for part in re.split(separator, text) if part.strip()] if text else None
    if twice := sorted({name for name in names or () if names.count(name) > 1}):
        raise UserError(f"{flag}: {', '.join(twice)} named twice; name each once")
    return names


def _check_api_base(args: argparse.Namespace) -> None:
    """--api-base for an evaluation that calls no server (run, answers and judge offline): refused, not unused."""
    if not args.api_base or (args.judge and not is_offline(args.judge, {})):
        return
    try:
        config = read_config(RunFolder(Path(args.run)))
    except RunFolderError as error:
        raise UserError(str(error)) from None
    try:
        check_api_base({**model_settings(config), "api_base": args.api_base, **({"llm": args.llm} if args.llm else {})})
    except SettingError as error:
        raise UserError(f"--api-base {error}") from None


def run(args: argparse.Namespace) -> int:
    """Evaluate, showing items, calls and cost; resumes where a killed evaluation stopped."""
    _check_api_base(args)
    console = Console(stderr=True)
    columns = (TextColumn("[bold]evaluating"), BarColumn(), MofNCompleteColumn(), TextColumn("items"),
               TextColumn("{task.fields[calls]} calls, ${task.fields[cost]}"), TimeRemainingColumn())  # fmt: skip
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task("evaluate", total=None, calls=0, cost="0.00")

        def progress(done: int, total: int, totals) -> None:
            bar.update(task, completed=done, total=total, calls=totals.calls, cost=f"{totals.cost or 0:.2f}")

        try:
            folder = evaluate_run(
                Path(args.run),
                at=_time(args.at),
                judge=args.judge,
                conditions=_names(args.conditions, r",(?=[a-z])", "--conditions"),  # full@1,2,1 keeps its commas
                repeats=args.repeats,
                agents=_names(args.agents),
                llm=args.llm,
                progress=progress,
                battery=args.battery,
                api_base=args.api_base,
                budget={key: getattr(args, key) for key in ("max_calls", "max_cost") if getattr(args, key) is not None},
            )
        except (EvaluationError, BatteryError, RunFolderError) as error:
            raise UserError(str(error)) from None
        except (BudgetExceeded, ModelUnavailable) as error:
            again = " (with a larger --max-calls/--max-cost)" if isinstance(error, BudgetExceeded) else ""
            raise UserError(
                f"{error}; what was answered is kept: run the same command again{again} to continue"
            ) from None
    print(f"evaluation written to {folder} (summary.md, ratings.csv, statistics.csv, measures.json, plots)")
    summary = (folder / "summary.md").read_text()
    print(summary.split("\n\n", 1)[-1].split("\nModel calls of this")[0].strip())  # all but its title and costs
    return 0
