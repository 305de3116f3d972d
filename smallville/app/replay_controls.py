"""The replay's own control: a slider over every recorded minute of the run, to start watching at any time."""

import solara
from mesa.visualization.utils import force_update, update_counter

from smallville.app import inputs
from smallville.app.replay import ReplayModel
from smallville.app.work import work_of


def seek_to(model: ReplayModel, frame: object) -> bool:
    """Move the replay to a recorded row (the slider's position); any other position is refused in one line."""
    work = work_of(model)
    try:
        model.seek(inputs.replay_frame(model, frame))
    except inputs.Refused as refused:
        work.failure.set(str(refused))
        return False
    work.failure.set("")
    force_update()
    return True


@solara.component
def ReplayScrubber(model: ReplayModel):
    """Move to any recorded minute; moving only reads the run folder (no model call, nothing written)."""
    update_counter.get()

    first, last = model.times[0], model.times[-1]
    with solara.Row(style="align-items: center; gap: 8px;", classes=["replay-scrubber"]):
        solara.Text(f"Replay from {first:%a %H:%M}", style="white-space: nowrap;")
        with solara.Div(style="flex: 1 1 auto;"):
            solara.SliderInt(
                "",
                value=model.frame,
                min=0,
                max=model.frames - 1,
                on_value=lambda frame: seek_to(model, frame),
                thumb_label=False,
                tick_labels=False,
            )
        solara.Text(f"to {last:%a %H:%M} (now {model.now:%a %H:%M})", style="white-space: nowrap;")
