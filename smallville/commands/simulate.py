"""`run.py simulate` and `run.py resume`: run the town to an end time, checkpointing into a run folder.

A new run locks its folder and writes its config before the model is built, and checkpoints at step 0, so a run
killed at any moment can be resumed (one killed while loading starts again from the beginning). SIGTERM or Ctrl-C
finish the step under way and write a checkpoint before the process exits.
"""

import argparse
import time
from datetime import datetime
from pathlib import Path

import pandas as pd
from rich.console import Console

from agents import BudgetExceeded, ModelUnavailable, PersonaFileError
from smallville.cli import UserError
from smallville.commands.loading import build_model, checked_town, open_store
from smallville.heap import settled_heap
from smallville.model import SmallvilleModel
from smallville.progress import fallback_share, print_summary, step_with_progress
from smallville.runs.integrity import model_settings
from smallville.runs.kept_checkpoints import Keeper
from smallville.runs.stopping import StopRequests
from smallville.runs.store import RunFolderError, RunStore
from smallville.scenarios.scenario import ScenarioError
from smallville.settings.keep_schedule import KeepSchedule
from smallville.settings.parameters import from_arguments
from smallville.settings.validation import SettingError, check_api_base, check_end

# Exit code of a run that finished but whose answers were mostly fallbacks (1 is a user error, 2 a stopped run).
FALLBACK_EXIT = 3


def run(args: argparse.Namespace) -> int:
    """Check everything, lock a new run folder, build the model, run it to the end time, print the summary."""
    with StopRequests() as stop:  # a SIGTERM while loading: finish loading, write the step-0 checkpoint, stop
        return _simulate(args, stop)


def _simulate(args: argparse.Namespace, stop: StopRequests) -> int:

    kwargs = from_arguments(args)
    try:
        setting = checked_town(kwargs)
        end = end_time(args, setting.start, kwargs["seconds_per_step"] or setting.seconds_per_step)
        _check_kept_times(args.keep_checkpoints, setting.start, end)
        out = Path(args.out) if args.out else Path("runs") / f"{Path(kwargs['scenario_name']).stem}-{_stamp()}"
        run_terms = {"end": end.isoformat(), "checkpoint_minutes": args.checkpoint_minutes}
        if args.keep_checkpoints is not None:
            run_terms["keep_checkpoints"] = args.keep_checkpoints.to_config()
        store = RunStore.create(out, {**kwargs, **run_terms})
    except (ValueError, ScenarioError, RunFolderError) as error:
        raise UserError(str(error).splitlines()[0]) from error
    console = Console(stderr=True, soft_wrap=True)
    console.print(f"run folder: {out}")
    started = time.perf_counter()
    try:
        with console.status("loading the town (map, personas, seeded memories)..."):
            model = SmallvilleModel(**kwargs, prompt_log=args.log_prompts)
    except BaseException as error:
        store.close()
        _loading_failed(error, out)
        raise
    return _run_to_end(model, store, end, args, console, started, stop)


def end_time(args: argparse.Namespace, start: datetime, seconds_per_step: int | None = None) -> datetime:
    """The run's end: --until, or the start plus --days (smallville/settings/validation.py, as for a grid's cells).

    Raises:
        UserError: If --until is not after the scenario's start (by a step at least), or too far after it.
    """
    try:
        return check_end(start, args.until, args.days, seconds_per_step)
    except SettingError as error:
        raise UserError(f"--{error.name} {error}") from None


def _check_kept_times(schedule: KeepSchedule | None, start: datetime, end: datetime) -> None:
    """--keep-checkpoints' times within the run: one before its start or after its end is never kept.

    Raises:
        UserError: Naming the first such time.
    """
    for moment in schedule.times if schedule is not None else ():
        if not start <= moment <= end:
            raise UserError(
                f"--keep-checkpoints: {moment:%Y-%m-%dT%H:%M} is outside the run ({start:%Y-%m-%dT%H:%M} to "
                f"{end:%Y-%m-%dT%H:%M}), so no checkpoint is kept then; give times within it"
            )


def resume(args: argparse.Namespace) -> int:
    """Lock the run folder, restore its last checkpoint (or start over if it has none), and run on to the end."""
    console = Console(stderr=True, soft_wrap=True)
    started = time.perf_counter()
    store = open_store(args.run, write=True)
    with StopRequests() as stop:
        return _resume(store, args, console, started, stop)


def _resume(store, args: argparse.Namespace, console: Console, started: float, stop: StopRequests) -> int:

    try:
        config = store.config()
        args.checkpoint_minutes = config["checkpoint_minutes"]
        terms = ("max_calls", "max_cost", "api_base")  # what may change without changing what happens
        overrides = {key: getattr(args, key) for key in terms if getattr(args, key) is not None}
        try:
            check_api_base({**model_settings(config), **overrides})
        except SettingError as error:
            raise UserError(f"--api-base {error}") from None
        if store.snapshot is None:
            console.print(f"{args.run}: no checkpoint yet (stopped while loading); starting it from the beginning")
            store.start_over()
            with console.status("loading the town (map, personas, seeded memories)..."):
                model = _build_or_explain(store, overrides, restore=False)
        else:
            with console.status("loading the town and its last checkpoint..."):
                model = _build_or_explain(store, overrides)
        try:
            changes = _new_terms(args, model, config, overrides)
            if changes:
                store.update_config(changes)
        except RunFolderError as error:
            model.close()
            raise UserError(str(error)) from error
        except BaseException:
            model.close()
            raise
    except BaseException:
        store.close()
        raise
    console.print(f"resuming {args.run} at {model.now:%Y-%m-%d %H:%M}")
    return _run_to_end(model, store, datetime.fromisoformat(changes.get("end", config["end"])), args, console,
                       started, stop)  # fmt: skip


def _build_or_explain(store, overrides: dict, *, restore: bool = True):
    """The run's model with its new terms; a budget spent or a model lost while it loads is one line."""
    try:
        return build_model(store, overrides=overrides, restore=restore)
    except (BudgetExceeded, ModelUnavailable) as error:
        raise UserError(f"stopped while loading the town: {error}; {_what_next(error, store.folder.root)}") from error


def _new_terms(args: argparse.Namespace, model, config: dict, overrides: dict) -> dict:
    """The config values a resume changes (a new end, budget or server), each checked against where the run stands.

    Raises:
        UserError: If the new end is not after the run's last checkpoint, or a new budget is already spent.
    """
    changes = dict(overrides)
    if args.until is not None or args.days is not None:
        end = end_time(args, model.start)
        if end <= model.now:
            flag = f"--until {args.until:%Y-%m-%dT%H:%M}" if args.until is not None else f"--days {args.days:g}"
            raise UserError(
                f"{flag}: the run is at {model.now:%Y-%m-%dT%H:%M} already; give a later end to continue it"
            )
        changes["end"] = end.isoformat()
    totals = model.gateway.ledger.totals()
    if overrides.get("max_calls") is not None and overrides["max_calls"] <= totals.calls:
        raise UserError(
            f"--max-calls {overrides['max_calls']}: the run has made {totals.calls} model calls already; "
            "give more (the budget counts them all)"
        )
    if overrides.get("max_cost") is not None and overrides["max_cost"] <= (totals.cost or 0.0):
        raise UserError(
            f"--max-cost {overrides['max_cost']:g}: the run has spent ${totals.cost:.2f} already; "
            "give more (the budget counts it all)"
        )
    return {key: value for key, value in changes.items() if config.get(key) != value}


def _kept(model, store) -> str:
    """What a run stopped mid-step keeps: its last checkpoint and the model's answers since, replayed on resume."""
    if not model.torn or store.snapshot is None:
        return ""
    answers = len(store.journal) if store.journal is not None else 0
    return (
        f"kept: its checkpoint of {store.snapshot.now:%Y-%m-%d %H:%M} and the {answers} answers since, replayed "
        "on resume (it goes on exactly as if it had not stopped); "
    )


def _what_next(error: BaseException, root) -> str:
    """What to run after a stop (BudgetExceeded or ModelUnavailable): a spent budget names the option that raises it."""
    if isinstance(error, BudgetExceeded):
        option = "--max-cost DOLLARS" if error.spent == "cost" else "--max-calls CALLS"
        return f"continue with a larger budget: run.py resume {root} {option} (in all)"
    if error.refused:  # ModelUnavailable: a refusal for good, or a model that kept failing
        return f"the run is kept: once the model's server takes the call, run.py resume {root}"
    return f"when the model answers again: run.py resume {root}"


def _run_to_end(
    model, store, end: datetime, args: argparse.Namespace, console: Console, started: float, stop: StopRequests
) -> int:
    """Step to the end with checkpoints; a stop (budget, dead model, SIGTERM, Ctrl-C) checkpoints and says what next."""
    every = max(1, int(args.checkpoint_minutes * 60 // model.seconds_per_step))
    root = store.folder.root
    code = 0
    try:
        if store.snapshot is None:
            store.checkpoint(model)  # step 0: from here on the run can always be resumed
        keep = _keeper(model, store)
        keep()
        try:
            with settled_heap():
                step_with_progress(
                    model,
                    end,
                    console,
                    on_step=lambda: (_maybe_checkpoint(model, store, every), keep()),
                    should_stop=lambda: stop.requested,
                )
        except (BudgetExceeded, ModelUnavailable) as error:
            console.print(f"[red]stopped: {error}[/red]; {_kept(model, store)}{_what_next(error, root)}")
            code = 2
        # A town stopped mid-step (torn) is not checkpointed: its last checkpoint and the answers since resume it
        # (see _kept); and the last periodic checkpoint may be at this very step: then the one before is kept.
        if not model.torn and (store.snapshot is None or store.snapshot.now != model.now):
            store.checkpoint(model)
        if stop.requested:
            console.print(
                f"stopped at {model.now:%Y-%m-%d %H:%M}, checkpoint written; continue with: run.py resume {root}"
            )
            code = stop.exit_code
    except RunFolderError as error:
        raise UserError(str(error)) from error
    finally:
        store.close()
        model.close()
    wide = Console(width=max(Console().width, 112))
    print_summary(model, time.perf_counter() - started, wide, first_row(store.folder))
    console.print(f"results in {root} (run.py report {root} draws the plots)")
    return code or _judge_fallbacks(model, args, console)


def first_row(folder) -> dict | None:
    """The run's first recorded metrics row (its true starting figures), None before the first checkpoint."""
    path = folder.model_metrics
    if not path.is_file():
        return None
    rows = pd.read_csv(path, nrows=1)
    return rows.iloc[0].to_dict() if len(rows) else None


def _judge_fallbacks(model, args: argparse.Namespace, console: Console) -> int:
    """Exit non-zero when too many answers were fallbacks: the run looks complete but the model was not really used."""
    totals = model.gateway.ledger.totals()
    share = fallback_share(totals)
    limit = getattr(args, "max_fallback_share", 0.5)
    if share <= limit or getattr(args, "accept_fallbacks", False):
        return 0
    console.print(
        f"[red]warning: {totals.fallbacks} of {totals.requests} answers ({100 * share:.0f}%) were fallbacks, more "
        f"than --max-fallback-share {limit:g}: the model's answers were mostly unusable (see the table above and "
        "the log); check --llm/--api-base, or pass --accept-fallbacks to accept the run[/red]"
    )
    return FALLBACK_EXIT


def _loading_failed(error: BaseException, out: Path) -> None:
    """Turn a failure while building the model into one line; a mistake in the input leaves no folder behind."""
    if isinstance(error, (ValueError, ScenarioError, PersonaFileError)):
        _discard(out)
        raise UserError(str(error).splitlines()[0]) from error
    if isinstance(error, ModelUnavailable) and error.refused:  # a wrong name or URL: the folder holds nothing yet
        _discard(out)
        raise UserError(f"{error}; check --llm and --api-base, then simulate again") from error
    if isinstance(error, (BudgetExceeded, ModelUnavailable)):
        raise UserError(f"stopped while loading the town: {error}; {_what_next(error, out)}") from error


def _discard(out: Path) -> None:
    """Remove a new run folder that holds only what `RunStore.create` wrote and the empty memory store it opened."""
    databases = ("memory.sqlite", "answers.sqlite")
    for name in (
        "config.json",
        ".config.written.json",
        ".lock",
        *(f"{base}{end}" for base in databases for end in ("", "-wal", "-shm")),
    ):
        (out / name).unlink(missing_ok=True)
    for name in ("metrics", "graphs"):
        if (out / name).is_dir() and not any((out / name).iterdir()):
            (out / name).rmdir()
    if out.is_dir() and not any(out.iterdir()):
        out.rmdir()


def _keeper(model, store):
    """What keeps the run's checkpoints for forks on its --keep-checkpoints schedule (does nothing without one)."""
    schedule = KeepSchedule.from_config(store.config().get("keep_checkpoints"))
    return Keeper(schedule, store, model) if schedule is not None else lambda: None


def _maybe_checkpoint(model, store, every: int) -> None:
    if model.step_count % every == 0:
        store.checkpoint(model)


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")
