"""The controls above the tabs: play/pause at a speed in simulated minutes per second, Step, run to a time, Reset.

They replace Mesa's ModelController, which steps inside the click handler: with a language model behind the town
that froze the whole tab for as long as a step's calls were in flight. Here a click queues the work (work.py) and
returns; the page shows what the town is thinking about, greys out what cannot be done now (a second Step while one
is in flight, Reset while one is building), and shows a failed step in one line. Play queues one turn at a time:
the next only when the last has ended, so steps never pile up however slow the model.
"""

import time
from datetime import datetime

import solara
from mesa.visualization.utils import force_update, update_counter

from smallville.app import inputs
from smallville.app.player_box import clear_player_box
from smallville.app.replay import ReplayModel
from smallville.app.source import town_of
from smallville.app.voice import answer, voice_error
from smallville.app.work import Job, Work, work_of
from smallville.app.world_box import picked_object, world_error, world_note

# Play's speeds, in simulated minutes per wall-clock second (None: as fast as the town can step), and the default:
# at 15 a simulated day takes 96 s to watch (the old default showed 37 minutes of sleep in 30 s).
SPEEDS: dict[str, float | None] = {
    "1 min/s (a day in 24 min)": 1,
    "5 min/s (a day in 4.8 min)": 5,
    "15 min/s (a day in 96 s)": 15,
    "60 min/s (a day in 24 s)": 60,
    "240 min/s (a day in 6 s)": 240,
    "as fast as it steps": None,
}
DEFAULT_SPEED = "15 min/s (a day in 96 s)"
# Play redraws the page this often (wall-clock seconds); a turn steps as many steps as the speed asks for meanwhile.
TURN_S = 0.25
# "As fast as it steps" and "run to" redraw at least this often (wall-clock seconds).
LONGEST_TURN_S = 0.5


def step_label(model) -> str:
    """What the page says while a step is in flight."""
    return f"The town is thinking: the step from {town_of(model).now:%H:%M:%S}"


def seconds_per_step(model) -> float:
    """Simulated seconds one step of this model moves the clock (a replay's step is one recorded row)."""
    return float(model.seconds_per_step)


def take_steps(model, steps: float, keep_going=lambda: True) -> int:
    """Step the model up to `steps` times (stopping early if it ends, or when `keep_going` says so), then redraw."""
    taken = 0
    while taken < steps and model.running and keep_going():
        model.step()
        taken += 1
    force_update()
    return taken


def step_job(model, steps: int = 1) -> Job:
    """One click of Step."""
    return Job("step", step_label(model), lambda: take_steps(model, steps))


def turn_steps(model, speed: float | None) -> float:
    """How many steps one turn of Play takes at `speed` simulated minutes per second (inf: as many as time allows)."""
    if speed is None:
        return float("inf")
    return speed * 60 * TURN_S / seconds_per_step(model)


def play_job(
    model, work: Work, token: object, speed: solara.Reactive, until: datetime | None = None, owed: list | None = None
) -> Job:
    """One turn of Play (or of "run to" when `until` is given): step for a quarter second's worth, redraw, wait.

    The next turn is queued as this one leaves the queue. `token` is this press of Play: pausing clears
    `work.playing`, and pressing Play again starts a new chain with a new token, so a turn still in flight from
    before the pause ends its chain instead of running a second one. A fraction of a step owed carries to the next
    turn (`owed`); steps a slow town could not take in time are not owed.
    """
    owed = owed if owed is not None else [0.0]

    def current() -> bool:
        return work.playing.value is token and not work.closed

    def arrived() -> bool:
        return until is not None and town_of(model).now >= until

    def turn() -> None:
        started = time.monotonic()
        if until is not None and isinstance(model, ReplayModel):
            model.seek(model.frame_at(until))  # a replay jumps: every row is already there
            force_update()
            return
        wanted = turn_steps(model, None if until is not None else SPEEDS[chosen_speed(speed.value)])
        owed[0] += 0 if wanted == float("inf") else wanted
        steps = wanted if wanted == float("inf") else int(owed[0])
        take_steps(model, steps, lambda: current() and not arrived() and time.monotonic() - started < LONGEST_TURN_S)
        owed[0] -= int(owed[0])
        rest = TURN_S - (time.monotonic() - started)
        if rest > 0 and current() and until is None:
            time.sleep(rest)

    def next_turn() -> Job | None:
        if current() and model.running and not arrived():
            return play_job(model, work, token, speed, until, owed)
        if current():
            work.playing.set(None)  # the model has ended, or the time is reached
        return None

    def failed(message: str) -> None:
        work.playing.set(None)
        work.failure.set(f"The step failed: {message}")

    kind = "play" if until is None else "run-to"
    label = step_label(model) if until is None else f"Running to {until:%a %H:%M}; {step_label(model).lower()}"
    return Job(kind, label, turn, failed=failed, then=next_turn)


def reset_job(model: solara.Reactive, kwargs: dict) -> Job:
    """Build the town again from the parameters (a live one seeds its memories, which costs model calls), then swap.

    The page closes the old model when it lets go of it (page.py).
    """
    label = "Opening the replay again…" if isinstance(model.value, ReplayModel) else "Building a new town…"

    def swap(town) -> None:
        clear_boxes()  # what the boxes said was of the old town
        model.set(town)

    return Job("reset", label, lambda: type(model.value)(**kwargs), swap)


def clear_boxes() -> None:
    """Empty every box's message: the interview's answer, the world box's note, the player's, and their errors."""
    for state in (answer, voice_error, world_note, world_error, picked_object):
        state.set("")
    clear_player_box()


def run_to_target(model, text: str) -> datetime:
    """A "run to" time: "HH:MM" (the next time the clock shows it) or "YYYY-MM-DD HH:MM", one the town can reach.

    A live town runs forward from now within the longest run; a replay jumps within what it recorded.

    Raises:
        inputs.Refused: Naming the forms accepted, or the span the time must fall in.
    """
    if isinstance(model, ReplayModel):
        return inputs.run_to(text, model.now, model.times[0], model.times[-1])
    return inputs.run_to(text, model.now, model.start)


def chosen_speed(label: object) -> str:
    """A speed of the Speed list (its label).

    Raises:
        inputs.Refused: For any other value (the list offers only these).
    """
    if label not in SPEEDS:
        raise inputs.Refused(f"Speed: {label!r} is not one of the speeds; choose one of {', '.join(SPEEDS)}")
    return label


def run_to(model, work: Work, speed: solara.Reactive, text: str) -> bool:
    """The Run to button: the time checked, then Play until it (a replay jumps); a refusal is the work's failure."""
    if work.playing.value is not None or work.pending("reset", "step"):
        return False
    work.failure.set("")
    try:
        until = run_to_target(model, text)
    except inputs.Refused as refused:
        work.failure.set(str(refused))
        return False
    token = object()
    work.playing.set(token)
    work.submit(play_job(model, work, token, speed, until))
    return True


def choose_speed(work: Work, speed: solara.Reactive, label: object) -> bool:
    """The Speed list: a speed it offers is taken (Play's next turn uses it); any other value is refused in one line."""
    try:
        speed.set(chosen_speed(label))
    except inputs.Refused as refused:
        work.failure.set(str(refused))
        return False
    work.failure.set("")
    return True


@solara.component
def TownControls(model: solara.Reactive, parameters: solara.Reactive):
    """Play/pause, Step, run to, Reset; the speed; the clock; what is in flight."""
    update_counter.get()
    speed = solara.use_reactive(DEFAULT_SPEED)
    target, set_target = solara.use_state("")
    town = model.value
    work = work_of(town)
    work.queue.value  # noqa: B018 - read to redraw the buttons when the queue changes
    playing = work.playing.value is not None
    resetting = work.pending("reset")
    stepping = work.pending("step", "play", "run-to", "reset")

    def step() -> None:
        if not work.pending("step", "play", "run-to", "reset"):
            work.failure.set("")
            work.submit(step_job(town))

    def start(until: datetime | None = None) -> None:
        token = object()
        work.failure.set("")
        work.playing.set(token)
        work.submit(play_job(town, work, token, speed, until))

    def play_pause() -> None:
        if playing:
            work.playing.set(None)  # the step in flight ends; no next one is queued
        elif not work.pending("reset"):
            start()

    def reset() -> None:
        if not work.pending("reset"):
            work.playing.set(None)
            work.submit(reset_job(model, dict(parameters.value)))

    with solara.Row(style="align-items: center; flex-wrap: wrap; gap: 8px;", classes=["town-controls"]):
        solara.Button(
            label="Pause" if playing else "Play",
            color="primary",
            on_click=play_pause,
            disabled=resetting or not town.running,
            classes=["play-button"],
        )
        solara.Button(label="Step", on_click=step, disabled=playing or stepping or not town.running)
        with solara.Div(style="width: 230px;"):
            solara.Select(
                "Speed (simulated minutes per second)",
                values=list(SPEEDS),
                value=speed.value,
                on_value=lambda label: choose_speed(work, speed, label),
                dense=True,
            )
        with solara.Div(style="width: 150px;"):
            solara.InputText("Run to (HH:MM)", value=target, on_value=set_target, continuous_update=True)
        solara.Button(
            label="Run to",
            on_click=lambda: run_to(town, work, speed, target),
            disabled=playing or stepping or not target.strip(),
        )
        solara.Button(label="Reset", on_click=reset, disabled=resetting, outlined=True)
        solara.Text(f"{town_of(town).now:%a %b %d, %Y, %H:%M:%S}", classes=["town-clock"], style=CLOCK_STYLE)
        if not town.running:
            solara.Text("The run has ended." if isinstance(town, ReplayModel) else "The town has ended.")
    WorkStatus(work)


CLOCK_STYLE = "white-space: nowrap; font-size: 18px; font-weight: bold; margin-left: 8px;"


@solara.component
def WorkStatus(work: Work):
    """What is in flight (the running job, then what waits for it), with a moving bar; or the last failure."""
    queue = work.queue.value
    failure = work.failure.value
    with solara.Column(gap="0px", classes=["work-status"], style="min-height: 4px;") as main:
        if queue:
            solara.ProgressLinear(True)
            solara.Text(queue[0].label, classes=["work-running"])
            for job in queue[1:]:
                solara.Text(f"then: {job.label}", classes=["work-waiting"], style="color: #757575;")
        if failure:
            solara.Error(failure, classes=["work-failure"])
    return main
