"""Every value a user enters on the page, checked by the command line's own checks before anything runs.

The page's controls are doors like the flags: a new town's settings, a time to run to, an interview's question and
persona, a whisper, an object's new state, a player's name, persona, place and lines, a replay's position and run
folder. Each goes through the check its command-line twin uses (settings/option_types.py, settings/validation.py,
the players' and interventions' checks), so a value is refused with the same words wherever it comes in, and in one
line the page shows beside the control (`Refused`), never as a traceback in the server's log or not at all. No rule
is written here: each function only names the control and calls the shared check.
"""

import argparse
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from smallville.interventions.applying import check_object
from smallville.interventions.records import InterventionError
from smallville.players.visit import VisitError, checked_name, checked_place
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import RunFolderError, check_databases, read_config, read_snapshot
from smallville.scenarios.agent_names import UnknownAgent, resolve_agent
from smallville.settings import option_types
from smallville.settings.parameters import BY_NAME
from smallville.settings.validation import SettingError, check_reachable, check_town, check_value

__all__ = [
    "Refused",
    "agent_name",
    "interview_question",
    "new_town_settings",
    "object_address",
    "object_state",
    "persona",
    "place",
    "player_line",
    "player_name",
    "replay_folder",
    "replay_frame",
    "run_to",
    "whisper_statement",
]


class Refused(ValueError):
    """A value a control cannot take: one line naming the control, what is wrong and the fix."""


def _one_line(control: str, error: BaseException) -> Refused:
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return Refused(f"{control}: {first}")


def _text(control: str, check, text: Any) -> str:
    """A text through its option type (the flag's `type=`)."""
    if not isinstance(text, str):
        raise Refused(f"{control}: {text!r} is not text; type a sentence")
    try:
        return check(text)
    except argparse.ArgumentTypeError as error:
        raise _one_line(control, error) from None


def interview_question(text: Any) -> str:
    """`run.py interview`'s question."""
    return _text("Interview question", option_types.question, text)


def persona(text: Any, control: str = "Ask as") -> str:
    """`interview --as` / `join --persona`: optional ("" when left empty), else a persona's rules."""
    if isinstance(text, str) and not text.strip():
        return ""
    return _text(control, option_types.persona, text)


def whisper_statement(text: Any) -> str:
    """`run.py whisper`'s statement."""
    return _text("Inner voice", option_types.statement, text)


def object_state(text: Any) -> str:
    """`run.py set`'s state (a statement's rules)."""
    return _text("Its new state", option_types.statement, text)


def player_line(text: Any) -> str:
    """`join --say AGENT TEXT`'s text (a statement's rules)."""
    return _text("What you say", option_types.statement, text)


def object_address(ville, address: Any) -> str:
    """`run.py set`'s address: an object of the map."""
    if not isinstance(address, str) or not address:
        raise Refused("An object of the world: pick one from the list")
    try:
        check_object(ville, address, "An object of the world")
    except InterventionError as error:
        raise Refused(str(error).splitlines()[0]) from None
    return address


def agent_name(model, name: Any, control: str = "Say to") -> str:
    """An agent of the town, as `interview` and `join --say` resolve one."""
    if not isinstance(name, str):
        raise Refused(f"{control}: {name!r} is not an agent's name")
    try:
        return resolve_agent(name, list(model.by_name))
    except UnknownAgent as error:
        raise _one_line(control, error) from None


def player_name(model, name: Any) -> str:
    """`join --as`: a person's name in plain words, not an agent's."""
    if not isinstance(name, str):
        raise Refused(f"Your name: {name!r} is not a name")
    try:
        return checked_name(model, name)
    except VisitError as error:
        raise Refused(f"Your name: {str(error).removeprefix('--as ')}") from None


def place(model, text: Any) -> str:
    """`join --at`: a place of the town, its full address."""
    if not isinstance(text, str) or not text.strip():
        raise Refused("A place: pick one from the list, or click a building on the map")
    try:
        return checked_place(model, text)
    except VisitError as error:
        raise _one_line("A place", error) from None


def run_to(text: Any, now: datetime, start: datetime, last: datetime | None = None) -> datetime:
    """A "run to" time: HH:MM (the next time the clock shows it) or a date and time as `--until` takes it.

    A live town must reach it (after now, within the longest run from its start: `check_reachable`); a replay
    (`last`: its last recorded time) only jumps within what it recorded.
    """
    control = "Run to"
    if not isinstance(text, str) or not text.strip():
        raise Refused(f"{control}: give a time as HH:MM (e.g. 17:00) or YYYY-MM-DD HH:MM")
    text = text.strip()
    if len(text) <= 5:
        try:
            clock = datetime.strptime(text, "%H:%M")
        except ValueError:
            raise Refused(f"{control} {text!r}: give a time as HH:MM (e.g. 17:00) or YYYY-MM-DD HH:MM") from None
        target = now.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
        target = target if target > now else target + timedelta(days=1)
    else:
        try:
            target = option_types.until(text)
        except argparse.ArgumentTypeError as error:
            raise _one_line(control, error) from None
    if last is not None:
        if not start <= target <= last:
            raise Refused(
                f"{control} {target:%Y-%m-%d %H:%M}: the run recorded {start:%Y-%m-%d %H:%M} to "
                f"{last:%Y-%m-%d %H:%M}; give a time within it"
            )
        return target
    try:
        check_reachable(target, start, "until")
    except SettingError as error:
        raise _one_line(control, error) from None
    if target <= now:
        raise Refused(
            f"{control} {target:%Y-%m-%d %H:%M}: the town is at {now:%Y-%m-%d %H:%M} already; give a later time"
        )
    return target


def replay_frame(model, frame: Any) -> int:
    """A position of the replay's slider: one of the rows it recorded."""
    try:
        return option_types.integer_in(str(frame), 0, model.frames - 1, "0")
    except argparse.ArgumentTypeError as error:
        raise _one_line("Replay position", error) from None


def replay_folder(text: Any) -> str:
    """A run folder to replay, checked as `run.py serve RUN` checks one (cheaply: a replay only reads it)."""
    control = "Run folder"
    if not isinstance(text, str) or not text.strip():
        raise Refused(f"{control}: give a run folder that `run.py simulate` wrote, e.g. runs/my-run")
    text = text.strip()
    try:
        option_types.path_text(text)
    except argparse.ArgumentTypeError as error:
        raise _one_line(control, error) from None
    folder = RunFolder(Path(text))
    try:
        read_config(folder)
        check_databases(folder)
        snapshot = read_snapshot(folder)
    except RunFolderError as error:
        raise _one_line(control, error) from None
    if snapshot is None:
        raise Refused(f"{control}: {text}: no checkpoint yet; wait for the run's first one")
    if snapshot.problem:
        raise Refused(f"{control}: {snapshot.problem}; `run.py resume {text}` repairs it from the one before")
    return text


def new_town_settings(values: dict[str, Any]) -> dict[str, Any]:
    """A new town's settings from the dialog: each value by its flag's check, then what only the scenario can tell.

    Values the table does not know (none come from the dialog's controls) are passed on as `run.py serve` gave them.
    """
    checked = dict(values)
    for name, value in values.items():
        if name not in BY_NAME:
            continue
        try:
            checked[name] = check_value(name, value)
        except SettingError as error:
            raise _one_line(BY_NAME[name].label if name != "scenario_name" else "scenario", error) from None
    try:
        check_town({name: value for name, value in checked.items() if name in BY_NAME})
    except SettingError as error:
        name = error.name
        label = BY_NAME[name].label if name in BY_NAME and name != "scenario_name" else "scenario"
        raise _one_line(label, error) from None
    return checked
