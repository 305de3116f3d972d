"""`run.py set` (and `whisper --at`): change a run's world or an agent's mind, now or at a later simulated time.

The change is an intervention (interventions/records.py) added to the run's timeline at its last checkpoint: one
for now is applied at once and saved; one for later is applied when the resumed run reaches its time. A time before
the checkpoint cannot be changed in place: that is a fork (`run.py fork RUN --at TIME --set ...`).
"""

import argparse
from collections.abc import Callable
from datetime import datetime
from typing import Any

from smallville.cli import UserError
from smallville.commands.loading import load_run, save_checkpoint
from smallville.interventions.applying import check_object
from smallville.interventions.records import Intervention, InterventionError
from smallville.settings.validation import SettingError, check_reachable


def set_object(args: argparse.Namespace) -> int:
    """Give an object of the run's map a new state, now or --at a later time."""

    def change(model) -> Intervention:
        try:
            check_object(model.ville, args.address, "address")
        except InterventionError as error:
            raise UserError(str(error)) from error
        return Intervention(time=_when(args, model), kind="object", target=args.address, text=args.state)

    return _change_run(args.run, change)


def whisper_later(args: argparse.Namespace) -> int:
    """Queue a whisper for a later simulated time in the run's timeline."""

    def change(model) -> Intervention:
        if args.agent not in model.by_name:
            raise UserError(f"no agent named {args.agent!r} in this run; choose from: {', '.join(model.by_name)}")
        return Intervention(time=_when(args, model), kind="whisper", target=args.agent, text=args.statement)

    return _change_run(args.run, change)


def _change_run(run: str, change: Callable[[Any], Intervention]) -> int:
    """Open the run for writing, add the intervention `change` makes of its model, and save the checkpoint."""
    model, store = load_run(run, write=True)
    try:
        _add(model, change(model), run)
        save_checkpoint(store, model)
    finally:
        store.close()
        model.close()
    return 0


def _when(args: argparse.Namespace, model) -> datetime:
    """--at, checked against where the run stands; the checkpoint's time without it."""
    if args.at is None:
        return model.now
    try:
        check_reachable(args.at, model.start, "at")
    except SettingError as error:
        raise UserError(f"--at {error}") from None
    if args.at < model.now:
        raise UserError(
            f"--at {args.at:%Y-%m-%dT%H:%M}: the run is at {model.now:%Y-%m-%dT%H:%M} already; change the past in a "
            f"fork instead: run.py fork {args.run} --at {args.at:%Y-%m-%dT%H:%M} --out NEW_RUN ..."
        )
    return args.at


def _add(model, item, run: str) -> None:
    """Apply an intervention for now at once; queue a later one, saying when it takes effect."""
    if item.time == model.now:
        model.intervene_now(item)
        print(f"done at {model.now:%Y-%m-%d %H:%M}: {item.describe()} (resume the run to see what follows)")
        return
    model.timeline.add(item)
    print(f"queued: {item.describe()}; it takes effect when the run reaches that time (run.py resume {run})")
