"""Every write names its real cause: a missing folder, a file where a folder should be, a folder where a file should
be, permission, a full disk, a name too long; through `diagnose` and through the doors that write (simulate, compare,
report, batch)."""

import errno
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from smallville.batch import prepare
from smallville.batch import report as batch_report
from smallville.cli import main
from smallville.runs.diagnosis import diagnose, explain
from tests.smallville.fault_log import one_line
from tests.smallville.run_folders import FAST


def _os_error(number: int, path: Path) -> OSError:
    return OSError(number, os.strerror(number), str(path))


def _cases(tmp: Path) -> dict[str, tuple[Path, BaseException, str]]:
    regular = tmp / "a-file"
    regular.write_text("x")
    (tmp / "a-folder.csv").mkdir()
    return {
        "a missing folder": (
            tmp / "nowhere" / "deeper" / "run.sqlite",
            _os_error(errno.ENOENT, tmp),
            "nowhere does not",
        ),
        "a missing folder, as SQLite says it": (
            tmp / "nowhere" / "events.sqlite",
            sqlite3.OperationalError("unable to open database file"),
            f"the folder {tmp / 'nowhere'} does not exist",
        ),
        "a file where a folder should be": (
            regular / "run" / "config.json",
            _os_error(errno.ENOTDIR, regular),
            f"{regular} is a file, not a folder",
        ),
        "a file where a folder is made": (regular, _os_error(errno.EEXIST, regular), "is a file, not a folder"),
        "a folder where a file should be": (
            tmp / "a-folder.csv",
            _os_error(errno.EISDIR, tmp / "a-folder.csv"),
            "is a folder, not a file",
        ),
        "a full disk": (tmp / "run.csv", _os_error(errno.ENOSPC, tmp / "run.csv"), "No space left on device"),
        "a full disk, as SQLite says it": (
            tmp / "memory.sqlite",
            sqlite3.OperationalError("database or disk is full"),
            "disk is full",
        ),
        "a name too long": (tmp / ("x" * 300), _os_error(errno.ENAMETOOLONG, tmp), "too long for a file name"),
    }


CASES = [
    "a missing folder",
    "a missing folder, as SQLite says it",
    "a file where a folder should be",
    "a file where a folder is made",
    "a folder where a file should be",
    "a full disk",
    "a full disk, as SQLite says it",
    "a name too long",
]


@pytest.mark.parametrize("case", CASES)
def test_each_cause_is_named_as_itself_never_as_permission(tmp_path, case):
    path, error, words = _cases(tmp_path)[case]
    cause, fix = diagnose(path, error)
    assert words in cause and "permission" not in cause and fix
    assert explain(path, error, "cannot be written").count("\n") == 0


def test_a_read_only_folder_is_still_permission(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    cause, _ = diagnose(folder / "x.csv", _os_error(errno.EACCES, folder / "x.csv"))
    assert "permission denied" in cause


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small") / "run"
    assert main(["simulate", *FAST, "--until", "2023-02-13T00:10", "--out", str(out)]) == 0
    return out


def test_simulate_out_under_a_regular_file_says_so(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    out = tmp_path / "notes.txt" / "run"
    argv = ["simulate", *FAST, "--until", "2023-02-13T00:10", "--out", str(out)]
    line = one_line(capsys, argv, 2)  # refused at the door (the flag's own check), before anything is written
    assert f"{tmp_path / 'notes.txt'} is a file, not a folder" in line and "permission" not in line


def test_compare_out_under_a_regular_file_is_one_line_before_anything_is_printed(small, tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    line = one_line(capsys, ["compare", str(small), str(small), "--out", str(tmp_path / "notes.txt" / "c")], 2)
    assert "is a file, not a folder" in line


def test_report_onto_a_file_named_report_says_so(small, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(small, run)
    (run / "report").write_text("x")
    line = one_line(capsys, ["report", str(run)], 1)
    assert f"{run / 'report'} is a file, not a folder" in line


BATCH = ["batch", "--seeds", "1", "--scenario", "the_ville_n3", "--embedder", "hashing", "--until",
         "2023-02-13T00:10", "--workers", "1"]  # fmt: skip


def test_batch_out_under_a_regular_file_says_so(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    line = one_line(capsys, [*BATCH, "--conditions", "full", "--out", str(tmp_path / "notes.txt" / "b")], 2)
    assert "is a file, not a folder" in line


def test_batch_condition_name_too_long_for_a_file_name_is_one_line(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    name = "a_condition_named_at_length_" * 12
    grid.write_text(f"[conditions.{name}]\n")
    line = one_line(capsys, [*BATCH, str(grid), "--out", str(tmp_path / "b")], 1)
    assert "too long to name a cell's folder" in line and str(grid) in line


def test_batch_full_disk_while_writing_its_results_is_one_line(tmp_path, capsys, monkeypatch):
    batch = tmp_path / "b"
    prepare(batch, [], {})  # a batch folder (its cells need not have run for its report to be written)

    def full(batch, frame):
        raise _os_error(errno.ENOSPC, batch / "results.parquet")

    monkeypatch.setattr(batch_report, "write_results", full)
    line = one_line(capsys, ["report", str(batch)], 1)
    assert "results.parquet: cannot be written (No space left on device); free some disk space" in line
