"""Step, Play, Reset and the voice box as background work: a click returns at once, the page says what is in flight,
and the work runs one job at a time. A step is held in flight by a gate the test opens."""

import json
import threading
import time

import ipyvuetify
import pytest
import solara

from smallville.app.controls import TownControls
from smallville.app.inspector import AgentInspector
from smallville.app.map_panel import TownMap
from smallville.app.work import Job, Work, work_of
from tests.smallville.app.conftest import FAST
from tests.smallville.app.helpers import button, panel_text

# How long a gated step waits for the test before it goes on anyway: a click that blocked until the step ended would
# then show no step in flight, and the test fails instead of hanging.
GATE_S = 10


class GatedSteps:
    """Replaces a model's step: each step waits for the gate, and the most steps ever in flight at once is counted."""

    def __init__(self, model, fail: Exception | None = None, hold: bool = True):
        self.model, self.fail = model, fail
        self.original = model.step
        self.gate = threading.Event()
        if not hold:
            self.gate.set()
        self.started = threading.Event()
        self.in_flight = self.most_in_flight = self.steps = 0
        self.lock = threading.Lock()
        model.step = self

    def __call__(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.started.set()
        try:
            self.gate.wait(GATE_S)
            if self.fail is not None:
                raise self.fail
            self.original()
            time.sleep(0.01)
        finally:
            with self.lock:
                self.in_flight -= 1
                self.steps += 1


@pytest.fixture
def town():
    """A fresh three-agent town (each test steps it)."""
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(**FAST)
    yield model
    assert work_of(model).wait(GATE_S * 2)
    model.close()


def render_page(model, parameters: dict | None = None):
    """The controls, the map and the inspector of one tab, as the page lays them out."""
    reactive_model = solara.reactive(model)
    reactive_parameters = solara.reactive(parameters or {})

    @solara.component
    def Tab():
        with solara.Column():
            TownControls(reactive_model, reactive_parameters)
            TownMap(reactive_model.value)
            AgentInspector(reactive_model.value)  # the voice box is inside it

    _, rc = solara.render(Tab(), handle_error=False)
    return rc, reactive_model


def texts(rc, css_class: str) -> list[str]:
    """The text of every solara.Text with this class."""
    return [widget.children[0] for widget in rc.find(ipyvuetify.Html, class_=css_class).widgets]


def clock(rc) -> str:
    return rc.find(ipyvuetify.Html, class_="town-clock").widget.children[0]


def test_a_step_runs_in_the_background_while_the_page_answers_and_shows_what_is_thinking(town):
    gated = GatedSteps(town)
    rc, _ = render_page(town)
    assert clock(rc) == "Mon Feb 13, 2023, 00:00:00"
    button(rc, "Step").click()
    assert gated.started.wait(GATE_S)
    assert texts(rc, "work-running") == ["The town is thinking: the step from 00:00:00"]
    assert button(rc, "Step").disabled
    button(rc, "Step").click()  # a click that reached the server before the button greyed out queues nothing
    assert len(work_of(town).queue.value) == 1
    rc.find(
        ipyvuetify.Select, label="Agent"
    ).widget.v_model = "Klaus Mueller"  # the page still answers: the inspector follows
    assert panel_text(rc, "agent-card").startswith("Klaus Mueller (20)")
    assert clock(rc) == "Mon Feb 13, 2023, 00:00:00" and gated.steps == 0
    gated.gate.set()
    assert work_of(town).wait(GATE_S)
    assert clock(rc) == "Mon Feb 13, 2023, 00:00:10"
    assert gated.steps == 1 and gated.most_in_flight == 1
    assert texts(rc, "work-running") == [] and not button(rc, "Step").disabled


def test_a_question_asked_during_a_step_waits_for_it_then_is_answered(town):
    gated = GatedSteps(town)
    rc, _ = render_page(town)
    button(rc, "Step").click()
    assert gated.started.wait(GATE_S)
    question = rc.find(ipyvuetify.TextField, label="Interview question").widget
    question.v_model = "What are you doing today?"
    button(rc, "Ask").click()
    assert texts(rc, "work-waiting") == ["then: Isabella Rodriguez is thinking about your question…"]
    assert rc.find(ipyvuetify.Html, class_="voice-answer").widgets == []
    gated.gate.set()
    assert work_of(town).wait(GATE_S * 2)
    answer = texts(rc, "voice-answer")[0]
    assert answer.startswith("Isabella Rodriguez: ") and len(answer) > len("Isabella Rodriguez: ") + 10
    assert town.step_count == 1


def test_a_failed_step_is_shown_in_one_line_and_the_page_can_step_again(town):
    GatedSteps(town, fail=RuntimeError("the model server said no\nand a second line nobody needs"), hold=False)
    rc, _ = render_page(town)
    button(rc, "Step").click()
    assert work_of(town).wait(GATE_S)
    failure = rc.find(ipyvuetify.Alert).widget
    assert failure.children == ["The step failed: the model server said no"]
    assert not button(rc, "Step").disabled and town.step_count == 0
    button(rc, "Play").click()  # Play stops at its first failure, and says so the same way
    assert work_of(town).wait(GATE_S)
    assert rc.find(ipyvuetify.Alert).widget.children == ["The step failed: the model server said no"]
    assert button(rc, "Play") is not None and town.step_count == 0


@pytest.mark.slow  # plays the town
def test_play_takes_one_step_at_a_time_until_paused(town):
    gated = GatedSteps(town, hold=False)
    rc, _ = render_page(town)
    button(rc, "Play").click()
    deadline = time.monotonic() + 60
    while gated.steps < 4 and time.monotonic() < deadline:
        assert sum(job.kind == "play" for job in work_of(town).queue.value) <= 1
        time.sleep(0.005)
    assert button(rc, "Step").disabled
    button(rc, "Pause").click()
    assert work_of(town).wait(GATE_S)
    steps = gated.steps
    assert steps >= 4 and gated.most_in_flight == 1
    time.sleep(0.3)
    assert gated.steps == steps == town.step_count
    assert clock(rc) == f"{town.now:%a %b %d, %Y, %H:%M:%S}"
    assert button(rc, "Play") is not None and not button(rc, "Step").disabled


@pytest.mark.slow  # plays a fresh town
def test_pause_then_play_again_runs_one_chain_of_steps(town):
    gated = GatedSteps(town)
    rc, _ = render_page(town)
    button(rc, "Play").click()
    assert gated.started.wait(GATE_S)
    button(rc, "Pause").click()
    button(rc, "Play").click()  # while the first chain's step is still in flight
    assert [job.kind for job in work_of(town).queue.value] == ["play", "play"]
    gated.gate.set()
    deadline = time.monotonic() + 60
    while gated.steps < 6 and time.monotonic() < deadline:
        if gated.steps >= 3:  # the first chain has ended: one turn in the queue at a time again
            assert sum(job.kind == "play" for job in work_of(town).queue.value) <= 1
        time.sleep(0.005)
    button(rc, "Pause").click()
    assert work_of(town).wait(GATE_S)
    assert gated.most_in_flight == 1


@pytest.mark.slow  # builds a second town
def test_reset_builds_the_new_town_in_the_background(town):
    rc, reactive_model = render_page(town, {**FAST, "agents": 2})
    town.step()
    button(rc, "Reset").click()
    assert texts(rc, "work-running") == ["Building a new town…"]
    assert work_of(town).wait(60)
    new = reactive_model.value
    assert new is not town and new.step_count == 0 and len(new.people) == 2
    assert clock(rc) == "Mon Feb 13, 2023, 00:00:00"
    new.close()


def test_work_runs_jobs_in_order_one_at_a_time_and_reports_failures():
    work, seen, running = Work(), [], []

    def job(name: str, fail: bool = False) -> Job:
        def run() -> str:
            running.append(name)
            assert len(running) == 1
            time.sleep(0.01)
            running.remove(name)
            if fail:
                raise ValueError(f"{name} broke\nsecond line")
            return name

        return Job("step", name, run, done=seen.append)

    for name in ("a", "b", "c"):
        work.submit(job(name))
    work.submit(job("d", fail=True))
    assert work.wait(10)
    assert seen == ["a", "b", "c"]
    assert work.failure.value == "The step failed: d broke"
    assert work.queue.value == () and not work.busy


def render_served_page(monkeypatch, settings: dict) -> tuple:
    """The page `run.py serve` starts for these settings, in Solara's app layout; and the models it has built."""
    from smallville.app import page

    monkeypatch.setenv(page.SETTINGS_VARIABLE, json.dumps(settings))
    built = []
    monkeypatch.setattr(
        page, "build_model", lambda wanted, build=page.build_model: built.append(build(wanted)) or built[-1]
    )

    @solara.component
    def Tab():
        with solara.AppLayout():  # as the server lays the page out: the sidebar holds the controls
            page.Page()

    _, rc = solara.render(Tab(), handle_error=False)
    return rc, built


@pytest.mark.slow  # builds a second town
def test_the_served_page_resets_to_its_parameters_and_closes_the_old_town(monkeypatch):
    rc, built = render_served_page(monkeypatch, {"model": {**FAST, "rng": 3}})
    (old,) = built
    closed = threading.Event()
    original_close = old.close
    old.close = lambda: (original_close(), closed.set())
    button(rc, "Step").click()
    button(rc, "Reset").click()
    assert work_of(old).wait(60) and closed.wait(GATE_S)
    assert old.step_count == 1
    new = rc.find(ipyvuetify.Html, class_="town-clock").widget.children[0]
    assert new == "Mon Feb 13, 2023, 00:00:00"
    rc.close()


@pytest.mark.slow  # plays a fresh town
def test_closing_the_tab_stops_play_and_closes_the_model_after_the_step_in_flight(monkeypatch):
    rc, built = render_served_page(monkeypatch, {"model": FAST})
    (town,) = built
    gated = GatedSteps(town)
    closed = threading.Event()
    original_close = town.close
    town.close = lambda: (original_close(), closed.set())
    button(rc, "Play").click()
    assert gated.started.wait(GATE_S)
    rc.close()
    assert not closed.is_set()  # the step in flight still has the model
    gated.gate.set()
    assert closed.wait(GATE_S)
    assert gated.steps == 1 and not work_of(town).busy


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_play_moves_a_replay_at_the_chosen_simulated_minutes_per_second(run_folder):
    from smallville.app.controls import SPEEDS, TURN_S, play_job
    from smallville.app.replay import ReplayModel

    replay = ReplayModel(run_folder=str(run_folder))
    work, token = Work(), object()
    work.playing.set(token)
    speed = solara.reactive("15 min/s (a day in 96 s)")
    assert SPEEDS[speed.value] == 15
    job = play_job(replay, work, token, speed)
    started = time.monotonic()
    for _ in range(4):  # a quarter second each: a simulated minute is a row, so 3.75 rows a turn
        job.run()
        job = job.then()
    assert replay.frame == 15  # 3 + 4 + 4 + 4: a fraction of a row carries to the next turn
    assert time.monotonic() - started >= 3.5 * TURN_S  # each turn waits out its quarter second
    work.playing.set(None)
    assert job.then() is None  # paused: the chain ends


@pytest.mark.slow  # runs the town to a time
def test_run_to_stops_the_town_at_that_time(town):
    rc, _ = render_page(town)
    rc.find(ipyvuetify.TextField, label="Run to (HH:MM)").widget.v_model = "00:05"
    button(rc, "Run to").click()
    assert work_of(town).wait(60)
    assert town.now.isoformat() == "2023-02-13T00:05:00" and clock(rc) == "Mon Feb 13, 2023, 00:05:00"
    assert work_of(town).playing.value is None and not button(rc, "Step").disabled
    rc.find(ipyvuetify.TextField, label="Run to (HH:MM)").widget.v_model = "25:00"
    button(rc, "Run to").click()
    assert "give a time as HH:MM" in str(rc.find(ipyvuetify.Alert).widget.children)


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_run_to_in_a_replay_jumps_there(run_folder):
    from smallville.app.replay import ReplayModel

    replay = ReplayModel(run_folder=str(run_folder))
    rc, _ = render_page(replay)
    rc.find(ipyvuetify.TextField, label="Run to (HH:MM)").widget.v_model = "09:30"
    button(rc, "Run to").click()
    assert work_of(replay).wait(30)
    assert replay.now.isoformat() == "2023-02-13T09:30:00"
    rc.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("09:30", "2023-02-13T09:30:00"), ("07:00", "2023-02-14T07:00:00"), ("2023-02-14 17:00", "2023-02-14T17:00:00")],
    ids=["later-today", "tomorrow", "full-date"],
)
def test_run_to_times(text, expected):
    from datetime import datetime

    from smallville.app.inputs import run_to

    now = datetime(2023, 2, 13, 8, 0)
    assert run_to(text, now, start=now.replace(hour=0)).isoformat() == expected
