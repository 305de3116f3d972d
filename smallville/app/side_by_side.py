"""Two runs side by side on one time slider (a run and its fork, or two seeds): `run.py serve RUN --beside OTHER`.

The page's replay slider (and its Play) moves the first run; the second follows to its own row at the same
simulated time. Each map shows its run as the Town tab does, with the run's figures at that moment under it; above
them, where the two event logs first part (smallville/runs/compare.py) and what each has done since. A run a player
joined beside the same run without the player (`run.py compare RUN` makes it: RUN-without-NAME) shows what the
player changed; that run's caption says whom it is without. Reading only: nothing is asked of a model and nothing
is written.
"""

from pathlib import Path

import solara
from mesa.visualization.utils import update_counter

from smallville.app.map_panel import TownMap
from smallville.app.replay import ReplayModel
from smallville.runs.compare import first_difference


@solara.component
def SideBySide(first: ReplayModel, beside: str):
    """The first run (the page's replay) and the run folder `beside`, at the same simulated time."""
    update_counter.get()
    second = solara.use_memo(lambda: ReplayModel(run_folder=beside), [beside])
    second.seek(second.frame_at(first.now))
    parted = solara.use_memo(lambda: _parted(first, second), [first, second])
    with solara.Column(style="gap: 4px;", classes=["side-by-side"]) as main:
        solara.Text(parted, classes=["side-by-side-parted"])
        with solara.Row(style="align-items: flex-start; gap: 8px; flex-wrap: wrap;"):
            for town in (first, second):
                with solara.Column(style="flex: 1 1 600px; min-width: 0;", classes=["side-by-side-run"]):
                    solara.Text(_caption(town), classes=["side-by-side-caption"], style="font-weight: 500;")
                    TownMap(town)
                    solara.Text(_figures(town), classes=["side-by-side-figures"])
    return main


def _parted(first: ReplayModel, second: ReplayModel) -> str:
    """Where the two event logs first differ, in words."""
    index = first_difference(first.events, second.events)
    if index is None:
        return f"{_name(first)} and {_name(second)} do not differ while both run"
    entries = [events[index] for events in (first.events, second.events) if index < len(events)]
    when = min(entry["time"] for entry in entries)
    shown = "; ".join(f"{entry['agent'] or 'the world'}: {entry['text']}" for entry in entries)
    return f"The runs part at {when.replace('T', ' ')} ({shown})"


def _name(town: ReplayModel) -> str:
    return Path(town.folder.root).name


def _caption(town: ReplayModel) -> str:
    """The run's name and time; a run replayed without a player (`run.py compare RUN`) says whom it is without."""
    without = (town.config.get("forked_from") or {}).get("without_player")
    return f"{_name(town)}{f' (without {without})' if without else ''} at {town.now:%a %H:%M}"


def _figures(town: ReplayModel) -> str:
    """The run's density, awareness of each fact and attendance at this moment."""
    row = town.rows.iloc[town.frame]
    facts = [
        f"{column.removeprefix('aware_')} {100 * row[column]:.0f}%"
        for column in row.index
        if column.startswith("aware_")
    ]
    return (
        f"density {row['density']:.2f}; aware: {', '.join(facts) or 'no facts'}; at the gathering: {row['attendees']}"
    )
