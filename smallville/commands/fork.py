"""`run.py fork RUN --at TIME --out NEW [changes]`: a new run from a moment of another, with a change: "what if".

The fork starts from the run's latest kept checkpoint at or before TIME (smallville/runs/fork.py) and replays the
shared past up to TIME exactly (from the response cache: no model call with a cached real model, none at all offline);
at TIME its change takes effect, then it runs on to the source's end (or --until/--days). A change is interventions
(--whisper, --set, --broadcast, --interventions FILE: interventions/records.py) and/or the town's parameters (any
of simulate's model options except those the stored state depends on). A fork with no change reproduces its source.
"""

import argparse
import shutil
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console

from smallville.cli import UserError
from smallville.commands.loading import build_model, save_checkpoint
from smallville.commands.simulate import _run_to_end, end_time
from smallville.interventions.applying import check_interventions
from smallville.interventions.records import Intervention, InterventionError, Timeline, parse_interventions
from smallville.progress import step_with_progress
from smallville.runs.folder import RunFolder
from smallville.runs.fork import start_fork
from smallville.runs.integrity import RunFolderError, check_databases, read_config, read_snapshot
from smallville.runs.stopping import StopRequests
from smallville.scenarios.scenario import load_scenario
from smallville.settings.parameters import BY_NAME
from smallville.settings.paths import check_outside

# Parameters the stored state is built on: a fork cannot change them (another town, step or embedding space).
FIXED = ("scenario_name", "agents", "seconds_per_step", "embedder", "embedding_cache")


def run(args: argparse.Namespace) -> int:
    """Check the change, copy the run at its kept checkpoint, replay to --at, change, and run on to the end."""
    given = {name: getattr(args, name) for name in BY_NAME if hasattr(args, name)}
    file_changes = given.pop("interventions", None) or []
    fixed = [name for name in given if name in FIXED]
    if fixed:
        flags = ", ".join(BY_NAME[name].cli_flag for name in fixed)
        raise UserError(f"{flags}: a fork keeps its run's town, step and embeddings; change them in a new simulate")
    try:
        check_outside(args.out, args.run)  # a fork inside its source would copy itself into its own folder
    except ValueError as error:
        raise UserError(str(error)) from error
    source = RunFolder(Path(args.run))
    try:
        config = read_config(source)
        check_databases(source)  # a damaged file, or one of another version's layout, is one line naming it
        snapshot = read_snapshot(source, full=True)  # a fork would carry the damage into a new run
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if snapshot is None:
        raise UserError(f"{args.run}: no checkpoint yet; wait for the run's first one")
    at = args.at
    if at > snapshot.now:
        raise UserError(
            f"--at {at:%Y-%m-%dT%H:%M}: after the run's last checkpoint ({snapshot.now:%Y-%m-%dT%H:%M}); "
            f"give an earlier time, or change the run itself (run.py set/whisper --at, then resume)"
        )
    changes = _changes(args, at, file_changes)
    end = _end(args, config, at)
    started = time.perf_counter()
    console = Console(stderr=True, soft_wrap=True)
    with StopRequests() as stop:
        store, model = _start(source, args, config, at, end, changes, given)
        try:
            model = _replay_then_change(model, store, at, changes, given, console, stop)
        except BaseException:
            store.close()
            model.close()
            raise

        args.checkpoint_minutes = config["checkpoint_minutes"]
        console.print(f"fork {args.out} of {args.run} at {at:%Y-%m-%d %H:%M}: {_described(changes, given)}")
        return _run_to_end(model, store, end, args, console, started, stop)


def _changes(args: argparse.Namespace, at: datetime, file_changes: list[dict]) -> list:
    """The interventions the fork makes: the flags' at --at, a file's at their own times (not before --at)."""
    changes = [Intervention(time=at, kind="whisper", target=name, text=text) for name, text in args.whisper or ()]
    changes += [Intervention(time=at, kind="object", target=address, text=state) for address, state in args.set or ()]
    changes += [Intervention(time=at, kind="broadcast", text=text) for text in args.broadcast or ()]
    for item in parse_interventions(file_changes, "--interventions"):
        if item.time < at:
            raise UserError(
                f"--interventions: {item.describe()} is before --at {at:%Y-%m-%dT%H:%M}; a fork changes only what "
                "follows its moment"
            )
        changes.append(item)
    return changes


def _end(args: argparse.Namespace, config: dict, at: datetime) -> datetime:

    if args.until is None and args.days is None:
        end = datetime.fromisoformat(config["end"])
    else:
        end = end_time(args, load_scenario(config["scenario_name"]).start)
    if end <= at:
        raise UserError(f"the fork would end ({end:%Y-%m-%dT%H:%M}) before --at; give a later --until")
    return end


def _start(source, args, config: dict, at: datetime, end: datetime, changes: list, given: dict):
    """The fork's folder and its model at the kept checkpoint, the change's targets checked against the town."""
    forked_from = {"run": str(source.root), "at": at.isoformat(), "changes": [item.describe() for item in changes],
                   "parameters": {name: value for name, value in given.items()}}  # fmt: skip
    try:
        store = start_fork(source, Path(args.out), at, {**config, "end": end.isoformat(), "forked_from": forked_from})
    except RunFolderError as error:
        raise UserError(str(error)) from error
    try:
        model = build_model(store)
        try:
            check_interventions(changes, model.setting.agent_names, model.ville, "the fork's change", start=model.start)
            _source_timeline(model, read_snapshot(source).state)
        except InterventionError as error:
            model.close()
            raise UserError(str(error)) from error
    except BaseException:
        store.close()
        _discard(Path(args.out))
        raise
    return store, model


def _source_timeline(model, source_state: dict) -> None:
    """Give the fork its source's whole timeline, so a fork with no change replays all of it.

    That is what the source had applied by the kept checkpoint, and what it applied or planned after it
    (`run.py set --at`, a whisper at a later checkpoint).

    Raises:
        InterventionError: If the kept checkpoint's applied interventions are not the start of the source's timeline.
    """
    saved = source_state["model"].get("interventions")
    if saved is None:
        return
    source = Timeline()
    source.set_state(saved)
    applied = model.timeline.applied
    if source.items[:applied] != model.timeline.items[:applied]:
        raise InterventionError(
            "the run's timeline does not begin with what its kept checkpoint applied; fork at its last checkpoint"
        )
    model.timeline.items = list(source.items)


def _replay_then_change(model, store, at: datetime, changes: list, given: dict, console: Console, stop):
    """Step the shared past up to `at` (if the kept checkpoint is earlier), then put the change in and checkpoint.

    New parameters rebuild the model from the checkpoint at `at` with them (as a resume with new terms does).
    """
    if given and model.now < at:
        step_with_progress(model, at, console, should_stop=lambda: stop.requested)
        if stop.requested:
            raise UserError("stopped while replaying the shared past; the fork folder is incomplete: delete it")
    if given:
        save_checkpoint(store, model)
        model.close()
        store.update_config(given)
        model = build_model(store)
    for item in changes:
        model.timeline.add(item)
    store.fork_pending = False
    save_checkpoint(store, model)  # the first checkpoint a resume may use: the change is part of it (atomically)
    return model


def _described(changes: list, given: dict) -> str:
    parts = [item.describe() for item in changes] + [f"{name} = {value!r}" for name, value in given.items()]
    return "; ".join(parts) or "no change (it replays its source)"


def _discard(out: Path) -> None:
    """Remove a fork folder that failed before its first step (it holds only copies)."""
    shutil.rmtree(out, ignore_errors=True)
