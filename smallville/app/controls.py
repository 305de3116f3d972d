"""The sidebar's controls: Reset, play/pause and Step, run as background work so the tab stays usable meanwhile.

They replace Mesa's ModelController, which steps inside the click handler: with a language model behind the town
that froze the whole tab for as long as a step's calls were in flight. Here a click queues the work (work.py) and
returns; the page shows what the town is thinking about, greys out what cannot be done now (a second Step while one
is in flight, Reset while one is building), and shows a failed step in one line. Play queues one step at a time:
the next only when the last has ended, so steps never pile up however slow the model.
"""

import time

import solara
from mesa.visualization.utils import force_update

from smallville.app.source import town_of
from smallville.app.work import Job, Work, work_of

# Play waits this long between steps (Mesa's slider, in ms), and a Step or a play step takes this many steps before
# the page is redrawn (Mesa's render interval).
PLAY_INTERVAL_MS = 50
STEPS_PER_UPDATE = 1


def step_label(model) -> str:
    """What the page says while a step is in flight."""
    return f"The town is thinking: the step from {town_of(model).now:%H:%M:%S}"


def take_steps(model, steps: int, keep_going=lambda: True) -> None:
    """Step the model `steps` times (stopping early if it ends, or when `keep_going` says so), then redraw."""
    for _ in range(steps):
        model.step()
        if not model.running or not keep_going():
            break
    force_update()


def step_job(model, steps: int) -> Job:
    """One click of Step."""
    return Job("step", step_label(model), lambda: take_steps(model, steps))


def play_job(model, work: Work, token: object, interval_ms: solara.Reactive, steps: solara.Reactive) -> Job:
    """One turn of Play: wait the interval and step; the next turn is queued as this one leaves the queue.

    `token` is this press of Play: pausing clears `work.playing`, and pressing Play again starts a new chain with a
    new token, so a turn still in flight from before the pause ends its chain instead of running a second one.
    """

    def current() -> bool:
        return work.playing.value is token

    def turn() -> None:
        if current():
            time.sleep(interval_ms.value / 1000)
        if current():
            take_steps(model, steps.value, current)

    def next_turn() -> Job | None:
        if current() and model.running:
            return play_job(model, work, token, interval_ms, steps)
        if current():
            work.playing.set(None)  # the model has ended
        return None

    def failed(message: str) -> None:
        work.playing.set(None)
        work.failure.set(f"The step failed: {message}")

    return Job("play", step_label(model), turn, failed=failed, then=next_turn)


def reset_job(model: solara.Reactive, kwargs: dict) -> Job:
    """Build a new model from the parameters (a live one seeds its memories, which costs model calls), then swap.

    The page closes the old model when it lets go of it (page.py).
    """
    return Job("reset", "Building a new town…", lambda: type(model.value)(**kwargs), model.set)


@solara.component
def TownControls(model: solara.Reactive, parameters: solara.Reactive):
    """Reset, play/pause and Step for the tab's model, the play interval, and what is in flight."""
    interval_ms = solara.use_reactive(PLAY_INTERVAL_MS)
    steps = solara.use_reactive(STEPS_PER_UPDATE)
    town = model.value
    work = work_of(town)
    work.queue.value  # noqa: B018 - read to redraw the buttons when the queue changes
    playing = work.playing.value is not None
    resetting = work.pending("reset")
    stepping = work.pending("step", "play", "reset")

    def step() -> None:
        if not work.pending("step", "play", "reset"):
            work.failure.set("")
            work.submit(step_job(town, steps.value))

    def play_pause() -> None:
        if playing:
            work.playing.set(None)  # the step in flight ends; no next one is queued
        elif not work.pending("reset"):
            token = object()
            work.failure.set("")
            work.playing.set(token)
            work.submit(play_job(town, work, token, interval_ms, steps))

    def reset() -> None:
        if not work.pending("reset"):
            work.playing.set(None)
            work.submit(reset_job(model, dict(parameters.value)))

    solara.SliderInt("Play Interval (ms)", value=interval_ms, min=1, max=500, step=10)
    solara.SliderInt("Render Interval (steps)", value=steps, min=1, max=100, step=2)
    with solara.Row(justify="space-between"):
        solara.Button(label="Reset", color="primary", on_click=reset, disabled=resetting)
        solara.Button(
            label="❚❚" if playing else "▶",
            color="primary",
            on_click=play_pause,
            disabled=resetting or not town.running,
        )
        solara.Button(label="Step", color="primary", on_click=step, disabled=playing or stepping or not town.running)
    WorkStatus(work)


@solara.component
def WorkStatus(work: Work):
    """What is in flight (the running job, then what waits for it), with a moving bar; or the last failure."""
    queue = work.queue.value
    failure = work.failure.value
    with solara.Column(gap="0px", classes=["work-status"]) as main:
        if queue:
            solara.ProgressLinear(True)
            solara.Text(queue[0].label, classes=["work-running"])
            for job in queue[1:]:
                solara.Text(f"then: {job.label}", classes=["work-waiting"], style="color: #757575;")
        if failure:
            solara.Error(failure, classes=["work-failure"])
    return main
