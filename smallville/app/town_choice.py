"""Which town the tab shows, said in the title bar, and the choice of another: a new live town or a replay.

Each browser tab has its own town, so reloading the page starts a new one: the title says so, and this is where a
user chooses deliberately between a new town (with its settings) and the replay of a finished run folder.
"""

from datetime import datetime
from pathlib import Path

import solara
from mesa.visualization.solara_viz import UserInputs, split_model_params

from smallville.app import inputs
from smallville.app.html import note
from smallville.app.params import live_params
from smallville.app.replay import ReplayModel
from smallville.app.work import Job, submit_checked, work_of
from smallville.model import SmallvilleModel

# What the dialog refused last, in one line (shown in the dialog, under the button pressed).
choice_error = solara.reactive("")
# Where run folders are looked for (beside the one being replayed, too): `run.py simulate` writes to runs/.
RUNS = Path("runs")


def town_title(town, started: datetime) -> str:
    """The title bar: what this tab shows (`started`: when the tab built it, by the wall clock)."""
    if isinstance(town, ReplayModel):
        return (
            f"Smallville: replay of {town.folder.root.name} "
            f"({town.times[0]:%a %H:%M} to {town.times[-1]:%a %H:%M}, no model calls)"
        )
    return f"Smallville: a live town, new at {started:%H:%M} (reloading the page starts another)"


def run_folders(near: Path | None = None) -> list[str]:
    """Run folders that can be replayed (a config.json and metrics), newest first."""
    places = [RUNS] + ([near.parent] if near is not None else [])
    found = {
        folder.resolve()
        for place in places
        if place.is_dir()
        for folder in place.iterdir()
        if (folder / "config.json").is_file() and (folder / "metrics" / "model.csv").is_file()
    }
    return [str(folder) for folder in sorted(found, key=lambda folder: folder.stat().st_mtime, reverse=True)]


def slider_values(adjustable: dict, values: dict) -> str:
    """The sliders' values in words, under them (a slider shows its value only while it is dragged)."""
    sliders = [name for name, options in adjustable.items() if options.get("type") in ("SliderInt", "SliderFloat")]
    return "Chosen: " + ", ".join(f"{adjustable[name].get('label', name)} {values.get(name)}" for name in sliders)


def switch_job(model: solara.Reactive, parameters: solara.Reactive, chosen: dict, label: str, build) -> Job:
    """The switch to a checked choice, in the background; the page closes the old town when the new one shows.

    Play stops and the page keeps the `chosen` parameters at once; the job then runs `build` and shows its town.
    """
    work_of(model.value).playing.set(None)
    parameters.set(chosen)
    return Job("reset", label, build, model.set)


def start_new_town(model: solara.Reactive, parameters: solara.Reactive, values: dict) -> bool:
    """Start a new live town: the dialog's values checked as `run.py simulate` checks its flags, then built.

    Returns whether the town is being built (a refusal is one line in the dialog, and nothing is built).
    """

    def build_job() -> Job:
        kwargs = inputs.new_town_settings(values)
        return switch_job(model, parameters, kwargs, "Building a new town…", lambda: SmallvilleModel(**kwargs))

    return submit_checked(model.value, choice_error, build_job)


def open_replay(model: solara.Reactive, parameters: solara.Reactive, text: str) -> bool:
    """Open the replay of a run folder, checked as `run.py serve RUN` checks it; whether it is being opened."""

    def open_job() -> Job:
        chosen = inputs.replay_folder(text)
        label = f"Opening the replay of {Path(chosen).name}…"
        return switch_job(model, parameters, {"run_folder": chosen}, label, lambda: ReplayModel(chosen))

    return submit_checked(model.value, choice_error, open_job)


@solara.component
def TownChoice(model: solara.Reactive, parameters: solara.Reactive, settings: dict):
    """A button opening the choice between a new live town and a replay."""
    showing, set_showing = solara.use_state(False)
    adjustable, fixed = solara.use_memo(lambda: split_model_params(live_params(settings.get("model", {}))), [])
    live = solara.use_reactive({**fixed, **{name: options["value"] for name, options in adjustable.items()}})
    town = model.value
    near = town.folder.root if isinstance(town, ReplayModel) else None
    folders = solara.use_memo(lambda: run_folders(near), [showing])
    folder = solara.use_reactive(folders[0] if folders else "")

    def new_town() -> None:
        if start_new_town(model, parameters, live.value):
            set_showing(False)

    def replay() -> None:
        if open_replay(model, parameters, folder.value):
            set_showing(False)

    solara.Button("New town or replay…", on_click=lambda: set_showing(True), text=True, classes=["town-choice"])
    with (
        solara.v.Dialog(v_model=showing, on_v_model=set_showing, max_width=640),
        solara.Card("Which town to watch", classes=["town-choice-dialog"]),
    ):
        solara.HTML(unsafe_innerHTML="<b>A new live town</b>, from its first minute, with these settings:")
        UserInputs(adjustable, on_change=lambda name, value: live.set({**live.value, name: value}))
        solara.Text(slider_values(adjustable, live.value), classes=["slider-values"])
        solara.Button("Start a new town", color="primary", on_click=new_town, classes=["start-new-town"])
        if choice_error.value:
            solara.Error(choice_error.value, classes=["town-choice-error"])
        solara.HTML(
            unsafe_innerHTML="<b>The replay of a finished run</b> (a folder <code>run.py simulate</code> wrote; "
            "replaying makes no model call):"
        )
        if folders:
            solara.Select("Run folder", values=folders, value=folder)
        else:
            solara.HTML(unsafe_innerHTML=note("No run folder in runs/ yet: give one."))
            solara.InputText("Run folder", value=folder)
        solara.Button("Open the replay", on_click=replay, disabled=not folder.value, classes=["open-replay"])
