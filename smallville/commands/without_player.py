"""The run without its player, made for `run.py compare RUN --without-player`: a real simulation of the same seed.

The run is forked at its last checkpoint from before the player joined (smallville/runs/without_player.py), its
timeline is the run's own with the player's interventions taken out, and it steps to the run's last checkpoint. Up
to the join it replays the run exactly; from there the town goes on alone, as a run that never had the player
would. The folder is a run like any other (report, interview, serve --beside); a later compare reuses it while the
run has not changed since, and makes it again when it has.
"""

import shutil
from datetime import datetime
from pathlib import Path

from rich.console import Console

from smallville.cli import UserError
from smallville.commands.loading import build_model, save_checkpoint
from smallville.progress import step_with_progress
from smallville.runs.folder import RunFolder
from smallville.runs.fork import start_fork
from smallville.runs.integrity import RunFolderError, read_config, read_snapshot
from smallville.runs.stopping import StopRequests
from smallville.runs.without_player import PlayerVisit, checkpoint_before, timeline_items


def default_folder(source: Path, visit: PlayerVisit) -> Path:
    """Beside the run: RUN-without-alex-park (a run of its own, to report, interview or serve)."""
    slug = "-".join(visit.player.casefold().split())
    source = source if source.name else source.resolve()  # `compare .` from inside the run
    return source.parent / f"{source.name}-without-{slug}"


def without_player(source: Path, visit: PlayerVisit, target: Path, console: Console) -> Path:
    """The run without the player at `target`: made (or remade), or reused when it is of the run as it is now.

    Raises:
        UserError: If no checkpoint from before the join was kept, or `target` holds something else.
    """
    folder = RunFolder(source)
    try:
        config = read_config(folder)
        snapshot = read_snapshot(folder)
        moment, _ = checkpoint_before(folder, visit)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    forked_from = {
        "run": str(source.resolve()),
        "at": moment.isoformat(),
        "changes": [f"without {item.describe()}" for item in visit.interventions],
        "without_player": visit.player,
        "parameters": {},
    }
    if _reusable(target, forked_from, snapshot.now):
        console.print(f"the run without {visit.player}: {target} (made before; the run has not changed since)")
        return target
    _clear(target, visit)
    console.print(
        f"replaying {source} without {visit.describe()}: from its checkpoint at {moment:%Y-%m-%d %H:%M} "
        f"to {snapshot.now:%Y-%m-%d %H:%M}, into {target}"
    )
    items = [item for item in timeline_items(snapshot.state)[0] if item.player != visit.player]
    config = {**config, "end": snapshot.now.isoformat(), "forked_from": forked_from}
    try:
        _simulate(folder, target, moment, config, items, snapshot.now, console)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)  # half a baseline is no baseline; it is made again next time
        raise
    return target


def _simulate(folder: RunFolder, target: Path, moment: datetime, config: dict, items, end: datetime, console) -> None:
    """Fork at `moment`, give the fork the timeline without the player, and step to `end` with checkpoints."""
    try:
        store = start_fork(folder, target, moment, config)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    try:
        model = build_model(store)
        try:
            applied = model.timeline.applied
            if model.timeline.items[:applied] != items[:applied]:
                raise UserError(f"{folder.root}: its timeline does not begin with what its checkpoint applied")
            model.timeline.items = list(items)
            store.fork_pending = False
            save_checkpoint(store, model)
            every = max(1, int(config["checkpoint_minutes"] * 60 // model.seconds_per_step))
            with StopRequests() as stop:

                def checkpoint_on_schedule() -> None:
                    if model.step_count % every == 0:
                        store.checkpoint(model)

                step_with_progress(
                    model, end, console, on_step=checkpoint_on_schedule, should_stop=lambda: stop.requested
                )
                if stop.requested:
                    raise UserError("stopped before the run without the player was complete; compare again to make it")
            if store.snapshot is None or store.snapshot.now != model.now:
                store.checkpoint(model)
        finally:
            model.close()
    except RunFolderError as error:
        raise UserError(str(error)) from error
    finally:
        store.close()


def _reusable(target: Path, forked_from: dict, end: datetime) -> bool:
    """Whether `target` is this very run without the player, complete to the run's last checkpoint."""
    try:
        made = RunFolder(target)
        snapshot = read_snapshot(made) if made.exists() else None
        return snapshot is not None and read_config(made).get("forked_from") == forked_from and snapshot.now == end
    except RunFolderError:
        return False


def _clear(target: Path, visit: PlayerVisit) -> None:
    """Remove an earlier run without this player (the run has changed since); refuse to touch anything else.

    Raises:
        UserError: If `target` exists and is not a run without this player.
    """
    if not target.exists():
        return
    try:
        ours = (read_config(RunFolder(target)).get("forked_from") or {}).get("without_player") == visit.player
    except RunFolderError:
        ours = False
    if not ours:
        raise UserError(f"{target}: exists and is not a run without {visit.player}; move it away or give --baseline")
    shutil.rmtree(target)
