"""`run.py batch [GRID]`: a grid of conditions x seeds x scenarios, in local processes or on a Ray cluster."""

import argparse
import hashlib
import json
import os
from pathlib import Path

from rich.console import Console

from smallville.batch import (
    GridError,
    LocalExecutor,
    RichDisplay,
    check_cells,
    expand,
    named_condition,
    parse_seeds,
    prepare,
    run_batch,
    validate_grid,
    write_batch_report,
)
from smallville.batch.grid import read_grid
from smallville.cli import UserError
from smallville.settings.parameters import BATCH_FLAGS


def run(args: argparse.Namespace) -> int:
    """Plan the cells, run the unfinished ones, write the table, summary and plots; 0 if every cell is done."""
    console = Console(stderr=True)
    try:
        data = _grid_data(args)
        batch = Path(args.out) if args.out else Path("batches") / _default_name(args, data)
        shared = _share_cache(data, batch)
        grid = validate_grid(data, args.grid or "the command line", shared)
        cells = expand(grid, args.grid or "the command line")
        check_cells(grid, cells, args.grid or "the command line")
        prepare(batch, cells, data)
    except GridError as error:
        raise UserError(str(error)) from error
    console.print(f"batch folder: {batch} ({len(cells)} cells)")
    executor = _executor(args, batch)
    display = RichDisplay(console)
    try:
        outcomes = run_batch(batch, cells, executor, grid.budget, display)
    finally:
        display.end()
    try:
        written = write_batch_report(batch)
    except GridError as error:
        raise UserError(str(error)) from error
    console.print(f"results: {batch / 'results.csv'}, summary: {batch / 'summary.md'} ({len(written)} files)")
    unfinished = [outcome for outcome in outcomes if outcome.status not in ("done", "skipped")]
    failed = [outcome for outcome in unfinished if outcome.status == "failed"]
    if failed:  # running again cannot help until the cause is fixed: say what it is
        first = failed[0]
        console.print(
            f"[red]{len(failed)} cells failed; the first, {first.cell_id}: {first.message.splitlines()[0][:300]} "
            f"(each cell's message is in {batch / 'cells'}/<cell>/cell.json); fix the cause, then run the same "
            "command again[/]"
        )
    if len(unfinished) > len(failed):
        console.print(
            f"[yellow]{len(unfinished) - len(failed)} cells unfinished; run the same command again to resume them[/]"
        )
    if unfinished:
        return 2
    return 0


def report(batch: Path) -> int:
    """`run.py report BATCH`: draw the batch's table, summary and plots again."""
    try:
        written = write_batch_report(batch)
    except GridError as error:
        raise UserError(str(error)) from error
    print(f"batch report written to {batch} ({', '.join(path.name for path in written)})")
    return 0


def _grid_data(args: argparse.Namespace) -> dict:
    """The grid file's data (if any) with the flags laid over it."""
    data: dict = {}
    if args.grid:
        try:
            data = read_grid(Path(args.grid))
        except GridError as error:
            raise UserError(str(error)) from error
    if args.conditions:
        names = [name.strip() for name in args.conditions.split(",")]
        if twice := sorted({name for name in names if names.count(name) > 1}):
            raise UserError(f"--conditions: {', '.join(twice)} named twice; name each condition once")
        try:
            data["conditions"] = {name: named_condition(name) for name in names}
        except KeyError as error:
            raise UserError(f"--conditions: {error.args[0]}") from error
    if args.seeds is not None:
        try:
            data["seeds"] = parse_seeds(args.seeds)
        except ValueError as error:
            raise UserError(f"--seeds: {error}") from error
    if args.scenario:
        data["scenarios"] = args.scenario.split(",")
    if args.days is not None or args.until is not None:
        data.pop("days", None)
        data.pop("until", None)
        data.update({"days": args.days} if args.days is not None else {"until": args.until})
    elif "days" not in data and "until" not in data:
        data["days"] = 1.0
    if args.evaluate:
        data["evaluate"] = True
    if args.checkpoint_minutes is not None:
        data["checkpoint_minutes"] = args.checkpoint_minutes
    _lay_parameters(args, data)
    return data


def _lay_parameters(args: argparse.Namespace, data: dict) -> None:
    """The model flags over the grid's [parameters], the budget flags over its [budget]."""
    parameters = dict(data.get("parameters", {}))
    for name in BATCH_FLAGS:
        if getattr(args, name) is not None:
            parameters[name] = getattr(args, name)
    if parameters:
        data["parameters"] = parameters
    budget = dict(data.get("budget", {}))
    budget.update({key: value for key, value in (("calls", args.max_calls), ("cost", args.max_cost)) if value})
    if budget:
        data["budget"] = budget


def _share_cache(data: dict, batch: Path) -> frozenset[str]:
    """Cells share a response cache (BATCH/cache.sqlite, real models) and vectors (BATCH/embeddings.sqlite).

    Each only where the grid names none, the response cache for cells that call a real model, the vectors for cells
    that embed with a model (not `hashing`).

    Returns the names of the parameters it set (their folder, BATCH/, is made when the batch starts). Both are SQLite
    in WAL mode with a busy timeout, so the cells' processes write to them safely. Offline cells get
    no response cache: their answers cost nothing, and a cache would only make the call counts depend on the cells'
    order. A kept local vector is the one a fresh encoding gives, so sharing them changes no cell, only its time.
    """
    parameters = data.setdefault("parameters", {})
    shared = set()
    if parameters.get("llm", "offline") != "offline" and not parameters.get("cache_path"):
        parameters["cache_path"] = str((batch / "cache.sqlite").resolve())
        shared.add("cache_path")
    if parameters.get("embedder", "minilm") != "hashing" and not parameters.get("embedding_cache"):
        parameters["embedding_cache"] = str((batch / "embeddings.sqlite").resolve())
        shared.add("embedding_cache")
    return frozenset(shared)


def _default_name(args: argparse.Namespace, data: dict) -> str:
    """The same command gives the same folder, so running it again resumes the batch."""
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:8]
    return f"{Path(args.grid).stem}-{digest}" if args.grid else f"batch-{digest}"


def _executor(args: argparse.Namespace, batch: Path):
    if args.ray:
        try:
            from smallville.batch.ray_executor import RayExecutor, RayUnreachable  # noqa: PLC0415 - optional extra
        except ImportError as error:
            raise UserError("--ray needs the ray extra: pip install 'smallville-on-mesa[ray]' (or uv sync) ") from error
        try:
            return RayExecutor(batch, address=args.ray, workers=args.workers)
        except RayUnreachable as error:
            raise UserError(str(error)) from None

    return LocalExecutor(batch, workers=args.workers or os.cpu_count())
