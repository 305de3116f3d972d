"""The page's doors: every control's handler given one generated value, in-process, and the contract checked.

A control's handler (the function its button or list calls: smallville/app/) either queues the work with the value
honoured, or shows one line in its box and queues nothing: never an exception, never silence (neither a job nor a
message), never a message of several lines. The work a handler queues is run here in the calling thread (no worker,
no browser), and must not fail on a value the check let through: that would be a traceback in the server's log.
Each check returns the violation in words, or None; tests/smallville/fuzz/test_page_doors.py asserts None on a small
budget, benchmarks/bench_fuzz_doors.py --page counts violations on a large one.
"""

import contextlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from unittest import mock

from testing.door_values import HOSTILE, file_value, hostile_text

# How the doors' examples ended ("queued": the value taken and honoured or not, "refused": one line shown), for the
# benchmark's figures: a door whose examples are all refused tries only half its contract.
OUTCOMES: Counter = Counter()
# The texts every text control is tried with besides hypothesis's own: the hostile ones and a few over the bounds.
TEXTS = (*HOSTILE, "a" * 2000, " a" * 1001, "\ud800", "\t\n", "You are running for mayor")


@dataclass
class Page:
    """What the doors knock on: a live town, a replay of a run of the same town, and that run's folder."""

    live: Any
    replay: Any
    run_folder: str


@contextlib.contextmanager
def captured_jobs() -> Iterator[list]:
    """The jobs handlers submit, kept instead of run by a worker thread."""
    from smallville.app.work import Work  # noqa: PLC0415 - the rig loads the product only when used

    jobs: list = []
    with mock.patch.object(Work, "submit", lambda self, job: jobs.append(job)):
        yield jobs


def _message(*boxes) -> str:
    return "\n".join(box.value for box in boxes if box.value)


def knock(  # noqa: PLR0911 - one return a verdict
    handler: Callable[[], Any], boxes: tuple, honoured: Callable[[Any], str | None], *, run: bool = True
) -> str | None:
    """Call `handler`; the contract on what it queued (run here, then `honoured(result)`) or the line it showed.

    With `run=False` the job is not run (Play's turns step the town): `honoured` gets the job itself.
    """
    for box in boxes:
        box.set("")
    with captured_jobs() as jobs:
        try:
            handler()
        except Exception as error:
            return f"traceback: {type(error).__name__}: {str(error)[:200]}"
    shown = _message(*boxes)
    OUTCOMES["queued" if jobs else "refused"] += 1
    if jobs and shown:
        return f"both queued and refused: {shown[:200]!r}"
    if not jobs:
        if not shown:
            return "silence: nothing queued, nothing said"
        if len(shown.splitlines()) != 1:
            return f"{len(shown.splitlines())} lines instead of one: {shown[:300]!r}"
        return None
    (job,) = jobs
    if not run:
        return honoured(job)
    try:
        result = job.run()
        if job.done is not None:
            job.done(result)
    except Exception as error:
        return f"taken by the control, failed in its work: {type(error).__name__}: {str(error)[:200]}"
    return honoured(result)


def _names(page: Page) -> list[str]:
    return list(page.live.by_name)


def _texts():
    from hypothesis import strategies as st  # noqa: PLC0415 - a test dependency

    return st.one_of(st.sampled_from(TEXTS), hostile_text(), st.text(max_size=80))


def interview_door(page: Page, value: tuple[str, str]) -> str | None:
    """The Ask button: a question and who asks."""
    from smallville.app.voice import answer, ask, voice_error  # noqa: PLC0415

    name = _names(page)[0]
    question, asker = value

    def honoured(_) -> str | None:
        return None if answer.value.startswith(f"{name}: ") else f"no answer shown: {answer.value[:100]!r}"

    return knock(lambda: ask(page.live, name, question, asker), (voice_error,), honoured)


def whisper_door(page: Page, statement: str) -> str | None:
    """The Whisper button: a memory to give."""
    from smallville.app.voice import give, voice_error  # noqa: PLC0415

    name = _names(page)[0]
    before = len(page.live.event_log)

    def honoured(_) -> str | None:
        given = [e["text"] for e in page.live.event_log[before:] if e.get("intervention") == "whisper"]
        if given != [statement.strip()]:
            return f"whispered {given!r}, not {statement.strip()!r}"
        return None

    return knock(lambda: give(page.live, name, statement), (voice_error,), honoured)


def set_object_door(page: Page, value: tuple[str, str]) -> str | None:
    """The world box's Set button: an object and its new state."""
    from smallville.app.world_box import set_object, world_error  # noqa: PLC0415

    address, state = value

    def honoured(_) -> str | None:
        now = page.live.state.object_state(address).description
        return None if now == state.strip() else f"the object is {now!r}, not {state.strip()!r}"

    return knock(lambda: set_object(page.live, address, state), (world_error,), honoured)


def join_door(page: Page, value: tuple[str, str, str]) -> str | None:
    """The player box's Join button (then Leave, so the next example joins again): a name, a persona, a place."""
    from smallville.app.player_box import join_town, leave_job, player_error  # noqa: PLC0415

    name, persona, place = value
    model = page.live
    beside = _names(page)[0]

    def honoured(_) -> str | None:
        wanted = " ".join(name.split()).casefold()
        joined = [player.name for player in model.players if player.name.casefold() == wanted]
        if not joined:
            return f"no player {name!r} in the town"
        player = joined[0]
        leave_job(model, player).run()
        entry = next(e for e in reversed(model.event_log) if e.get("intervention") == "join" and e["agent"] == player)
        if persona.strip() and persona.strip() not in entry["text"]:
            return f"joined as {entry['text'][:100]!r}, not {persona.strip()!r}"
        return None

    return knock(lambda: join_town(model, name, persona, place, beside), (player_error,), honoured)


def say_door(page: Page, value: tuple[str, str]) -> str | None:
    """The player box's Say button, for a player already in the town: an agent and a line."""
    from smallville.app.player_box import join_job, leave_job, player_error, player_note, say_to  # noqa: PLC0415

    agent, line = value
    model = page.live
    join_job(model, "Fuzz Visitor", "a visitor", None, _names(page)[0]).run()
    try:

        def honoured(_) -> str | None:
            return None if f"you: {line.strip()}" in player_note.value else f"not said: {player_note.value[:100]!r}"

        return knock(lambda: say_to(model, "Fuzz Visitor", agent, line), (player_error,), honoured)
    finally:
        leave_job(model, "Fuzz Visitor").run()


def run_to_door(page: Page, text: str, *, replay: bool = False) -> str | None:
    """The Run to button, on the live town (queued, not run: running costs steps) or on the replay (jumps)."""
    import solara  # noqa: PLC0415

    from smallville.app.controls import DEFAULT_SPEED, run_to  # noqa: PLC0415
    from smallville.app.work import work_of  # noqa: PLC0415

    model = page.replay if replay else page.live
    work = work_of(model)
    speed = solara.Reactive(DEFAULT_SPEED)
    before = model.now
    try:
        wanted = _time_of(text, before)
    except ValueError:
        wanted = None

    def honoured(job) -> str | None:
        if wanted is None:
            return f"{text!r} taken as a time"
        if replay:
            return None if model.now == model.times[model.frame_at(wanted)] else f"at {model.now}, not {wanted}"
        if f"Running to {wanted:%a %H:%M}" not in job.label or not before < wanted:
            return f"{text!r} run to as {job.label!r}"
        return None

    try:
        return knock(lambda: run_to(model, work, speed, text), (work.failure,), honoured, run=replay)
    finally:
        work.playing.set(None)
        if replay:
            model.seek(0)


def _time_of(text: str, now: datetime) -> datetime:
    """The time a user means by a "run to" text (the oracle: HH:MM next on the clock, or an ISO time)."""
    from datetime import timedelta  # noqa: PLC0415

    text = text.strip()
    if len(text) <= 5:
        clock = datetime.strptime(text, "%H:%M")
        target = now.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
        return target if target > now else target + timedelta(days=1)
    return datetime.fromisoformat(text)


def speed_door(page: Page, label: Any) -> str | None:
    """The Speed list."""
    import solara  # noqa: PLC0415

    from smallville.app.controls import DEFAULT_SPEED, choose_speed  # noqa: PLC0415
    from smallville.app.work import work_of  # noqa: PLC0415

    work = work_of(page.live)
    speed = solara.Reactive(DEFAULT_SPEED)
    work.failure.set("")
    try:
        took = choose_speed(work, speed, label)
    except Exception as error:
        return f"traceback: {type(error).__name__}: {str(error)[:200]}"
    OUTCOMES["queued" if took else "refused"] += 1
    if took:
        return None if speed.value == label and not work.failure.value else f"speed is {speed.value!r}"
    if speed.value != DEFAULT_SPEED:
        return "refused, yet the speed changed"
    return None if len(work.failure.value.splitlines()) == 1 else f"refusal: {work.failure.value[:200]!r}"


def replay_position_door(page: Page, frame: Any) -> str | None:
    """The replay's slider."""
    from smallville.app.replay_controls import seek_to  # noqa: PLC0415
    from smallville.app.work import work_of  # noqa: PLC0415

    model, work = page.replay, work_of(page.replay)
    model.seek(0)
    work.failure.set("")
    try:
        took = seek_to(model, frame)
    except Exception as error:
        return f"traceback: {type(error).__name__}: {str(error)[:200]}"
    OUTCOMES["queued" if took else "refused"] += 1
    if took:
        return None if str(model.frame) == str(frame).strip() else f"at row {model.frame}, not {frame!r}"
    if model.frame != 0:
        return f"refused, yet moved to row {model.frame}"
    return None if len(work.failure.value.splitlines()) == 1 else f"refusal: {work.failure.value[:200]!r}"


def new_town_door(page: Page, change: tuple[str, Any]) -> str | None:
    """The dialog's Start button with one setting changed (the town itself is not built: its settings are checked)."""
    import solara  # noqa: PLC0415

    from smallville.app.params import live_params  # noqa: PLC0415
    from smallville.app.town_choice import choice_error, start_new_town  # noqa: PLC0415
    from testing.door_checks import _records  # noqa: PLC0415

    name, value = change
    base = {"scenario_name": "the_ville_n3", "embedder": "hashing"}
    values = {key: spec["value"] if isinstance(spec, dict) else spec for key, spec in live_params(base).items()}
    values[name] = value
    model, parameters = solara.Reactive(page.live), solara.Reactive({})

    def honoured(_) -> str | None:
        return None

    with mock.patch("smallville.app.town_choice.switch_job") as switch:
        verdict = knock(lambda: start_new_town(model, parameters, values), (choice_error,), honoured)
        if verdict is not None or not switch.called:
            return verdict
    kwargs = parameters.value
    try:
        _records(kwargs)
    except Exception as error:
        return f"taken by the dialog, refused by the town's records: {type(error).__name__}: {str(error)[:200]}"
    return None if name not in kwargs or _same(kwargs[name], value) else f"{value!r} taken as {kwargs[name]!r}"


def _same(taken: Any, given: Any) -> bool:
    """A value as the dialog gave it, or as its flag's text reads (7 and "7" are the same seed)."""
    if isinstance(given, str) and given.strip() == "all":
        return taken is None  # every agent of the scenario, as `--agents all` says
    return taken == given or str(taken) == str(given).strip()


def replay_folder_door(page: Page, text: str) -> str | None:
    """The dialog's Open the replay button: a run folder typed in."""
    import solara  # noqa: PLC0415

    from smallville.app.town_choice import choice_error, open_replay  # noqa: PLC0415

    model, parameters = solara.Reactive(page.live), solara.Reactive({})
    opened: list = []

    def honoured(_) -> str | None:
        if not opened:
            return "no replay opened"
        opened[0].close()
        return None if parameters.value == {"run_folder": text.strip()} else f"opened {parameters.value!r}"

    with mock.patch.object(model, "set", opened.append):
        return knock(lambda: open_replay(model, parameters, text), (choice_error,), honoured)


def doors(page: Page) -> dict[str, tuple[Any, Callable[[Any], str | None]]]:
    """Every door of the page: its name -> (a hypothesis strategy of values, the check of one value)."""
    from hypothesis import strategies as st  # noqa: PLC0415

    from smallville.app.controls import SPEEDS  # noqa: PLC0415
    from smallville.app.params import live_params  # noqa: PLC0415
    from smallville.app.player_box import places_of  # noqa: PLC0415
    from smallville.settings.parameters import BY_NAME  # noqa: PLC0415

    texts = _texts()
    objects = st.one_of(st.sampled_from(sorted(page.live.ville.object_addresses())), texts)
    places = st.one_of(st.sampled_from(places_of(page.live.ville)), texts)
    agents = st.one_of(st.sampled_from(_names(page)), st.sampled_from([n.upper() for n in _names(page)]), texts)
    times = st.one_of(
        st.sampled_from(["00:05", "00:15", "00:30", "2023-02-13 00:20", "2023-02-13T00:29:59"]),  # within the replay
        st.sampled_from(["00:00", "08:30", "23:59", "24:00", "7:5", "2023-02-13 09:00", "2023-02-12 09:00",
                         "2024-02-13 09:00", "2023-02-13T09:00+01:00", "9999-12-31 23:59", "0001-01-01 00:00"]),
        st.times().map(lambda t: f"{t:%H:%M}"),
        st.datetimes(min_value=datetime(2023, 2, 12), max_value=datetime(2023, 2, 16)).map(str),
        texts,
    )  # fmt: skip
    controls = [name for name in live_params({"scenario_name": "the_ville_n3"}) if name in BY_NAME]
    settings = st.sampled_from(controls).flatmap(lambda n: file_value(BY_NAME[n]).map(lambda v: (n, v)))
    frames = st.one_of(
        st.integers(min_value=-5, max_value=page.replay.frames + 5),
        st.sampled_from([0, page.replay.frames - 1, page.replay.frames, -1, 1.5, float("nan"), "3", None, True]),
    )
    folders = st.one_of(
        st.sampled_from([page.run_folder, page.run_folder + "/", " " + page.run_folder]),
        st.sampled_from([str(Path(page.run_folder).parent), page.run_folder + "/metrics", page.run_folder + "/x"]),
        texts,
    )
    return {
        "interview (question, ask as)": (st.tuples(texts, texts), lambda v: interview_door(page, v)),
        "whisper": (texts, lambda v: whisper_door(page, v)),
        "set an object (object, state)": (st.tuples(objects, texts), lambda v: set_object_door(page, v)),
        "join (name, persona, place)": (st.tuples(texts, texts, places), lambda v: join_door(page, v)),
        "say (agent, line)": (st.tuples(agents, texts), lambda v: say_door(page, v)),
        "run to (live)": (times, lambda v: run_to_door(page, v)),
        "run to (replay)": (times, lambda v: run_to_door(page, v, replay=True)),
        "speed": (
            st.one_of(st.sampled_from(list(SPEEDS)), st.sampled_from(list(SPEEDS)), texts, st.none()),
            lambda v: speed_door(page, v),
        ),
        "replay position": (frames, lambda v: replay_position_door(page, v)),
        "new town settings": (settings, lambda v: new_town_door(page, v)),
        "replay folder": (folders, lambda v: replay_folder_door(page, v)),
    }
