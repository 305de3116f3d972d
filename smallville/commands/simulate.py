"""`run.py simulate` and `run.py resume`: run the town to an end time, checkpointing into a run folder."""

import argparse
import time
from datetime import datetime, timedelta
from pathlib import Path

from rich.console import Console

from smallville.cli import UserError
from smallville.options import model_kwargs
from smallville.progress import print_summary, step_with_progress


def run(args: argparse.Namespace) -> int:
    """Build the model in a new run folder, run it to the end time, print the summary."""
    from agents import BudgetExceeded, ModelUnavailable, PersonaFileError, check_model  # noqa: PLC0415 - heavy
    from smallville.model import SmallvilleModel  # noqa: PLC0415
    from smallville.run_store import RunFolderError, RunStore  # noqa: PLC0415
    from smallville.scenario import ScenarioError  # noqa: PLC0415

    kwargs = model_kwargs(args)
    try:
        for name in {kwargs["llm"], *(kwargs["routes"] or {}).values()}:
            check_model(name, api_base=kwargs["api_base"])
        out = Path(args.out) if args.out else Path("runs") / f"{Path(kwargs['scenario_name']).stem}-{_stamp()}"
        console = Console(stderr=True)
        started = time.perf_counter()
        with console.status("loading the town (map, personas, seeded memories)..."):
            model = SmallvilleModel(**kwargs)
        end = datetime.fromisoformat(args.until) if args.until else model.now + timedelta(days=args.days)
        store = RunStore.create(out, {**kwargs, "end": end.isoformat(), "checkpoint_minutes": args.checkpoint_minutes})
    except (ValueError, ScenarioError, PersonaFileError, RunFolderError) as error:
        raise UserError(str(error).splitlines()[0]) from error
    console.print(f"run folder: {out}")
    return _run_to_end(model, store, end, args.checkpoint_minutes, console, started, (BudgetExceeded, ModelUnavailable))


def resume(args: argparse.Namespace) -> int:
    """Rebuild the run's model from its config, restore the last checkpoint, and run on to the end."""
    from agents import BudgetExceeded, ModelUnavailable  # noqa: PLC0415
    from smallville.model import SmallvilleModel  # noqa: PLC0415
    from smallville.run_store import RunFolderError, RunStore  # noqa: PLC0415

    console = Console(stderr=True)
    started = time.perf_counter()
    try:
        store = RunStore.open(Path(args.run))
        config = store.config()
        end = datetime.fromisoformat(config.pop("end"))
        minutes = config.pop("checkpoint_minutes")
        with console.status("loading the town and its last checkpoint..."):
            model = SmallvilleModel(**config, seed_memories=False)
            store.restore(model)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    console.print(f"resuming {args.run} at {model.now:%Y-%m-%d %H:%M}")
    return _run_to_end(model, store, end, minutes, console, started, (BudgetExceeded, ModelUnavailable))


def _run_to_end(model, store, end, checkpoint_minutes, console, started, stops) -> int:
    every = max(1, int(checkpoint_minutes * 60 // model.seconds_per_step))
    code = 0
    try:
        step_with_progress(model, end, console, on_step=lambda: _maybe_checkpoint(model, store, every))
    except stops as error:
        console.print(f"[red]stopped: {error}[/red] (resume with: run.py resume {store.folder.root})")
        code = 2
    finally:
        store.checkpoint(model)
        store.close()
        model.close()
    print_summary(model, time.perf_counter() - started, Console())
    console.print(f"results in {store.folder.root} (run.py report {store.folder.root} draws the plots)")
    return code


def _maybe_checkpoint(model, store, every: int) -> None:
    if model.step_count % every == 0:
        store.checkpoint(model)


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")
