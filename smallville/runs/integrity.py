"""Checking a run folder on open: every file's shape, so damage is one line naming the file, never a traceback.

A run folder is trusted only as far as its newest complete checkpoint: `checkpoint/state.json` says how many events,
metric rows and memories it covers, and every other file must hold at least that much. The previous checkpoint is
kept as `checkpoint/previous.json`; when the newest one is damaged (a disk error, a hand edit) or does not fit the
data files, the previous one is used instead, so at most one checkpoint interval is lost. SQLite files are opened
read-only here (checking never writes), with SQLite's own `quick_check`.
"""

import json
import logging
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from smallville.runs.diagnosis import diagnose, needs_recovery, read_only_uri, writable
from smallville.runs.folder import CALL_COLUMNS, RunFolder, has_table, read_calls
from smallville.runs.identity import check_stamps, state_checksum, verify_digests
from smallville.settings.parameters import BY_NAME
from smallville.settings.simulated_time import SimulatedTime
from smallville.settings.text_files import first_field_error
from smallville.settings.validation import SettingError, check_value

logger = logging.getLogger(__name__)

# events.sqlite's layout version (`pragma user_version`); 0 is version 1's layout, written before it was versioned, and
# 2 adds the table `calls` (the model requests, which checkpoints of versions 0 and 1 kept in state.json).
EVENTS_SCHEMA_VERSION = 2
EVENT_COLUMNS = ("id", "time", "agent", "kind", "text", "details")
MEMORY_TABLES = {"meta", "streams", "nodes"}


class RunFolderError(ValueError):
    """A run folder that cannot be created, read or written; the message names the file, the fault and the fix."""


# Keys of config.json that belong to the run, not to SmallvilleModel's keyword arguments: when it ends, how often it
# checkpoints, which checkpoints it keeps for forks (smallville/runs/kept_checkpoints.py), what it was forked from,
# and its id (smallville/runs/identity.py).
RUN_KEYS = ("end", "checkpoint_minutes", "keep_checkpoints", "forked_from", "run_id")


def model_settings(config: dict) -> dict:
    """A run's config.json without the run's own keys: the keyword arguments that rebuild its model."""
    return {key: value for key, value in config.items() if key not in RUN_KEYS}


class RunConfig(BaseModel):
    """config.json: the model's keyword arguments (any others are passed on as they are) and the run's end."""

    model_config = ConfigDict(extra="allow")
    scenario_name: str = Field(min_length=1)
    end: SimulatedTime
    checkpoint_minutes: float = Field(gt=0)
    embedder: str = Field(min_length=1)
    llm: str = Field(min_length=1)


class ModelState(BaseModel):
    """The parts of SmallvilleModel.get_state a restore relies on (the rest is the model's own business)."""

    model_config = ConfigDict(extra="allow")
    step_count: int = Field(ge=0)
    random: list
    numpy_rng: dict
    world: dict
    conversations: list
    agents: dict[str, dict]
    social: dict
    ledger: dict | None = None  # only in checkpoints written before the `calls` table
    thoughts: list[dict]


class CheckpointState(BaseModel):
    """checkpoint/state.json: the model's state and how much of each data file it covers."""

    model_config = ConfigDict(extra="forbid")
    now: datetime
    journal: str | None = None  # the generation of the answers kept after it (None in checkpoints from before)
    model: ModelState
    stream_lengths: dict[str, int]
    events: int = Field(ge=0)
    calls: int | None = Field(default=None, ge=0)  # rows of the `calls` table; None in checkpoints from before it
    model_rows: int = Field(ge=0)
    agent_rows: int = Field(ge=0)
    # Written while a fork is being made, before its change is in: such a checkpoint is never resumed (FORK_PENDING).
    fork_pending: bool = False
    # The run it belongs to, digests of what it covers and its own checksum (runs/identity.py; None: older runs).
    run_id: str | None = None
    digests: dict | None = None
    checksum: str | None = None

    @model_validator(mode="after")
    def _agents_agree(self) -> "CheckpointState":
        if set(self.stream_lengths) != set(self.model.agents):
            raise ValueError("stream_lengths and model.agents name different agents")
        if (self.calls is None) == (self.model.ledger is None):
            raise ValueError("a checkpoint counts its calls or holds its ledger, one of the two")
        if any(length < 0 for length in self.stream_lengths.values()):
            raise ValueError("a stream length is negative")
        return self


@dataclass(frozen=True)
class Snapshot:
    """The checkpoint a run continues from (or is read at), and which file it came from."""

    path: Path
    state: dict
    now: datetime
    problem: str = ""

    @property
    def notice(self) -> str:
        """One line for the user when the newest checkpoint was damaged and this older one is used ("" otherwise)."""
        if not self.problem:
            return ""
        return f"{self.problem}; using the previous checkpoint ({self.now:%Y-%m-%d %H:%M}) instead"


def read_config(folder: RunFolder) -> dict:
    """config.json, checked, with what a run written by an older version did where it names nothing.

    Raises:
        RunFolderError: If the folder is not a run folder or its config is damaged.
    """
    if not folder.exists():
        raise RunFolderError(f"{folder.root}: not a run folder (no config.json); give a folder `run.py simulate` wrote")
    data = _read_json(folder.config, "restore it from a copy, or start a new run with `run.py simulate`")
    try:
        RunConfig.model_validate(data)
    except ValidationError as error:
        raise RunFolderError(
            f"{folder.config}: {first_field_error(error)}; "
            "restore it from a copy, or start a new run with `run.py simulate`"
        ) from error
    # A run written before thoughts overlapped ran in lock-step, and one written before lines of talk had steps of
    # their own gave them its thinking steps; each reads so.
    data.setdefault("thinking_steps", 0)
    data.setdefault("talk_thinking_steps", data.get("thinking_steps", 0))
    return data


# What a resume may change (with a flag, or by hand: the same thing): the run's end and terms, the model's server.
RUN_TERMS = frozenset(
    {"end", "checkpoint_minutes", "keep_checkpoints", "forked_from", "max_calls", "max_cost", "api_base"}
)


def hand_edits(folder: RunFolder, config: dict) -> list[str]:
    """Notes on the run terms edited by hand in config.json since the program wrote it ([] when none).

    A setting of the town itself (a seed, the scenario, an agent's count, a tunable) makes another run: a run resumed
    with it would be neither the old run nor a new one. So such an edit is refused, naming the key, the value the run
    has and the edited one; an edited run term (its end, budget, server) is what `resume --until` etc. do, and is
    named for the user to see. Then every value is checked as its command-line flag would be.

    Raises:
        RunFolderError: For an edited setting of the town, or a value its flag would refuse.
    """
    notes = []
    copy = folder.config_written
    written = _read_json(copy, "delete it (it is only a copy)") if copy.is_file() else {}
    as_is = _read_json(folder.config, "restore it from a copy") if written else {}
    for key in sorted(set(as_is) & set(written)):  # a key only one of them has: a file from an older version
        before, after = written[key], as_is[key]
        if before == after:
            continue
        if key in RUN_TERMS:
            notes.append(f"{folder.config}: {key} was edited by hand ({before!r} -> {after!r}); going on with it")
            continue
        flag = BY_NAME[key].cli_flag if key in BY_NAME else key
        raise RunFolderError(
            f"{folder.config}: {key} was edited by hand ({before!r} -> {after!r}), which would make another run "
            f"({flag}); put back {before!r}, or start a new run with `run.py simulate ... {flag} ...`"
        )
    for key, value in config.items():
        if key in BY_NAME:
            try:
                check_value(key, value)
            except SettingError as error:
                raise RunFolderError(f"{folder.config}: {key} = {value!r}: {error}; put back a valid value") from None
    return notes


def check_databases(folder: RunFolder) -> None:
    """SQLite integrity and layout of events.sqlite and memory.sqlite (those that exist).

    Raises:
        RunFolderError: Naming the damaged file.
    """
    fix = "restore it from a copy, or start a new run with `run.py simulate`"
    if folder.events.is_file():
        with _read_only(folder.events, fix) as db:
            version = db.execute("pragma user_version").fetchone()[0]
            if version > EVENTS_SCHEMA_VERSION:
                raise RunFolderError(
                    f"{folder.events}: layout version {version} is newer than this program's "
                    f"({EVENTS_SCHEMA_VERSION}); read it with the version that wrote it"
                )
            columns = tuple(row[1] for row in db.execute("pragma table_info(events)"))
            if columns and columns != EVENT_COLUMNS:
                raise RunFolderError(f"{folder.events}: the events table has columns {columns}, not {EVENT_COLUMNS}")
            columns = tuple(row[1] for row in db.execute("pragma table_info(calls)"))
            if columns and columns != ("id", *CALL_COLUMNS):
                raise RunFolderError(
                    f"{folder.events}: the calls table has columns {columns}, not {('id', *CALL_COLUMNS)}; {fix}"
                )
    if folder.memory.is_file():
        with _read_only(folder.memory, fix) as db:
            tables = {row[0] for row in db.execute("select name from sqlite_master where type = 'table'")}
            if tables and not tables >= MEMORY_TABLES:
                raise RunFolderError(f"{folder.memory}: not a memory store (tables {sorted(tables)}); {fix}")
            if tables:
                meta = dict(db.execute("select key, value from meta").fetchall())
                if "dim" in meta:
                    wrong = db.execute(
                        "select count(*) from nodes where length(embedding) != ?", (4 * int(meta["dim"]),)
                    ).fetchone()[0]
                    if wrong:
                        raise RunFolderError(
                            f"{folder.memory}: {wrong} stored embeddings are not {meta['dim']} numbers long; {fix}"
                        )


def read_snapshot(folder: RunFolder, *, making_fork: bool = False, full: bool = False) -> Snapshot | None:
    """The newest checkpoint that is whole and fits the data files; None if the run has none yet.

    Every read checks what costs little: the checkpoint's checksum, the run id stamped in each file, and that each
    file holds at least the rows the checkpoint counts. `full` also recomputes the digests of every row the
    checkpoint covers (a pass over the memory store: ~1 s on a 25-agent day), which finds a changed value or flipped
    bytes; it is asked for where damage would be carried on (resume and the other writers, fork, report), not where
    a run is only looked at (a replay, compare, an interview that keeps nothing).

    A fork's checkpoints written before its change was in (`fork_pending`) are read only by the fork being made
    (`making_fork`): for anyone else the fork was stopped half made, and resuming it would give an unchanged copy.

    Raises:
        RunFolderError: If checkpoints exist but none can be used, or the fork was stopped before its change was in.
    """
    candidates = [path for path in (folder.checkpoint_state, folder.checkpoint_previous) if path.is_file()]
    if not candidates:
        return None
    run_id = _run_id(folder)
    stranger = check_stamps(folder, run_id)
    if stranger:
        raise RunFolderError(stranger)
    problems = []
    for path in candidates:
        try:
            state = _read_checkpoint(path, folder, run_id, full=full)
        except RunFolderError as error:
            problems.append(str(error))
            continue
        if state.get("fork_pending") and not making_fork:
            raise RunFolderError(unfinished_fork(folder))
        if problems:
            logger.info("%s; continuing from %s", problems[0], path)
        return Snapshot(path, state, datetime.fromisoformat(state["now"]), problems[0] if problems else "")
    raise RunFolderError(
        f"{problems[0]}; no earlier checkpoint is usable either: start the run again with `run.py simulate`"
    )


def unfinished_fork(folder: RunFolder) -> str:
    """One line for a fork stopped before its change was stored with its first checkpoint: it cannot go on."""
    return (
        f"{folder.root}: a fork stopped while it was being made, before its change was stored; it would go on as an "
        f"unchanged copy of its source: delete the folder and run the fork again"
    )


def checkpoint_calls(folder: RunFolder, state: dict) -> list[dict]:
    """The model calls a checkpoint covers, oldest first, as CallRecord fields.

    They are in events.sqlite's `calls` table, or in the checkpoint itself if it was written before that table.
    """
    if state.get("calls") is None:
        return state["model"]["ledger"]["records"]
    return read_calls(folder.events, up_to=state["calls"])


def _run_id(folder: RunFolder) -> str | None:
    """config.json's run id (None: a run written before ids, or a config read_config will name as damaged)."""
    try:
        found = json.loads(folder.config.read_text(encoding="utf-8")).get("run_id")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def _read_checkpoint(path: Path, folder: RunFolder, run_id: str | None = None, *, full: bool = False) -> dict:
    data = _read_json(path, "the previous checkpoint is used when it is whole")
    if "checksum" in data and data["checksum"] != state_checksum(data):
        raise RunFolderError(f"{path}: its contents do not match its checksum (damaged, or edited by hand)")
    if run_id is not None and data.get("run_id") not in (None, run_id):
        raise RunFolderError(
            f"{path}: belongs to another run (run id {str(data['run_id'])[:8]}; this folder's is {run_id[:8]}): "
            "a checkpoint copied in from another run folder"
        )
    try:
        CheckpointState.model_validate(data)
    except ValidationError as error:
        raise RunFolderError(f"{path}: {first_field_error(error)}") from error
    have = {
        folder.events: _count_rows_of(folder.events, "events"),
        folder.model_metrics: _count_rows(folder.model_metrics),
        folder.agent_metrics: _count_rows(folder.agent_metrics),
    }
    wanted = {folder.events: data["events"], folder.model_metrics: data["model_rows"]}
    wanted[folder.agent_metrics] = data["agent_rows"]
    for file, count in wanted.items():
        if have[file] < count:
            raise RunFolderError(f"{file}: holds {have[file]} rows, the checkpoint {path.name} counts {count}")
    counted = data.get("calls") or 0  # None in checkpoints from before the calls table
    calls = _count_rows_of(folder.events, "calls") if counted else 0
    if calls < counted:
        raise RunFolderError(f"{folder.events}: holds {calls} calls, the checkpoint {path.name} counts {counted}")
    stored = _stored_lengths(folder.memory)
    for agent, length in data["stream_lengths"].items():
        if stored.get(agent, 0) < length:
            raise RunFolderError(
                f"{folder.memory}: holds {stored.get(agent, 0)} memories of {agent!r}, "
                f"the checkpoint {path.name} counts {length}"
            )
    differs = verify_digests(folder, data) if full else ""
    if differs:
        raise RunFolderError(differs)
    return data


def _read_json(path: Path, fix: str) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RunFolderError(f"{path}: cannot be read ({error}); {fix}") from error
    if not text.strip():
        raise RunFolderError(f"{path}: empty; {fix}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RunFolderError(f"{path}: not valid JSON ({error}); {fix}") from error
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: holds a {type(data).__name__}, not an object; {fix}")
    return data


class _read_only:  # noqa: N801 - used as a context manager, like open()
    """A read-only SQLite connection whose errors become a RunFolderError naming the file."""

    def __init__(self, path: Path, fix: str):
        self.path, self.fix = path, fix

    def __enter__(self) -> sqlite3.Connection:
        # In a folder this process cannot write (a read-only copy of a run), SQLite cannot make the files a reader
        # of a WAL database needs beside it: the file is then read as it is (immutable: no writer can be at work).
        try:
            result = self._open()
        except sqlite3.Error as error:
            if not (needs_recovery(error) and writable(self.path)):
                raise RunFolderError(self._message(error)) from error
            # A writer killed mid-write left a journal that only a writing connection may roll into the file (what
            # the run's next writer would do first): done once, the file is then checked as it is.
            with closing(sqlite3.connect(self.path, timeout=30)) as recovering:
                recovering.execute("pragma quick_check").fetchone()
            try:
                result = self._open()
            except sqlite3.Error as again:
                raise RunFolderError(self._message(again)) from again
        if result != "ok":
            self.db.close()
            raise RunFolderError(f"{self.path}: damaged ({result}); {self.fix}")
        return self.db

    def _open(self) -> str:
        self.db = sqlite3.connect(read_only_uri(self.path), uri=True, timeout=30)
        try:
            return self.db.execute("pragma quick_check").fetchone()[0]
        except sqlite3.Error:
            self.db.close()
            raise

    def __exit__(self, kind, error, traceback) -> None:
        self.db.close()
        if isinstance(error, sqlite3.Error):
            raise RunFolderError(self._message(error)) from error

    def _message(self, error: sqlite3.Error) -> str:
        """Permission, a lock or damage said as such; anything else as SQLite words it."""
        found = diagnose(self.path, error)
        if found is not None:
            return f"{self.path}: cannot be read ({found[0]}); {found[1]}"
        return f"{self.path}: not a readable SQLite database ({error}); {self.fix}"


def _count_rows_of(path: Path, table: str) -> int:
    if not path.is_file():
        return 0
    with _read_only(path, "restore it from a copy") as db:
        if not has_table(db, table):
            return 0
        return db.execute(f"select count(*) from {table}").fetchone()[0]


def _stored_lengths(path: Path) -> dict[str, int]:
    if not path.is_file():
        return {}
    with _read_only(path, "restore it from a copy") as db:
        if not has_table(db, "nodes"):
            return {}
        return dict(db.execute("select agent, count(*) from nodes group by agent").fetchall())


def _count_rows(path: Path) -> int:
    """Complete data rows of a CSV (a last line cut short by a crash does not count).

    Counted as the line ends outside quotes (a quoted field may hold a line end; a doubled quote toggles twice), over
    the bytes: parsing every row of a day's agent metrics cost half a second at every open of the folder.
    """
    if not path.is_file():
        return 0
    outside_quotes = path.read_bytes().split(b'"')[::2]
    return max(0, sum(part.count(b"\n") for part in outside_quotes) - 1)


# Metric columns that are shares of the town (0 to 1); every other one but `time` is a count or a sum (0 or more).
SHARE_COLUMNS = ("density",)


def check_model_metrics(frame, path: Path) -> None:
    """The model metrics as a report plots them: every time a time, every figure a number in its range.

    A row damaged by hand or by a disk error was plotted as it was (a spike, a gap, a line drawn to zero); it is
    named instead: its row, its column, its value.

    Raises:
        RunFolderError: Naming the file, the row (as a spreadsheet counts it, the header being row 1) and the column.
    """
    fix = "restore the file from a copy (a resume rewrites only what came after its checkpoint)"
    times = pd.to_datetime(frame["time"], errors="coerce", format="ISO8601")
    for index in frame.index[times.isna()][:1]:
        raise RunFolderError(f"{path}: row {index + 2}: time {frame['time'][index]!r} is not a time; {fix}")
    for column in frame.columns.drop("time"):
        values = pd.to_numeric(frame[column], errors="coerce")
        share = column in SHARE_COLUMNS or column.startswith("aware_")
        bad = values.isna() | (values < 0) | ((values > 1) if share else False)
        for index in frame.index[bad][:1]:
            span = "a share from 0 to 1" if share else "a number, 0 or more"
            raise RunFolderError(f"{path}: row {index + 2}: {column} is {frame[column][index]!r}, not {span}; {fix}")
