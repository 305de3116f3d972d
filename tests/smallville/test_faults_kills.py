"""The fault campaign, processes: kills at random moments, SIGTERM, two writers at once, and `serve` on SIGTERM.

Each killed run is resumed and must end exactly where an uninterrupted run ends: the same event log and the same
final checkpoint (call latencies aside). These run `run.py` as real processes, so they are slow.
"""

import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smallville.cli import main
from testing import free_port, serve_page
from tests.smallville.fault_log import record
from tests.smallville.processes import reached, run, start, wait_for
from tests.smallville.run_folders import FAST, events, final_state, metric_rows, metrics

ROOT = Path(__file__).resolve().parents[2]
ARGS = [*FAST, "--until", "2023-02-13T02:00", "--checkpoint-minutes", "15"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The uninterrupted run every interrupted one must match."""
    out = tmp_path_factory.mktemp("whole") / "run"
    assert main(["simulate", *ARGS, "--out", str(out)]) == 0
    return out


def _assert_same_end(result: subprocess.CompletedProcess, out: Path, whole: Path) -> None:
    """The finishing run succeeded and ended exactly where the uninterrupted one did: events, state and metrics."""
    assert result.returncode == 0, result.stderr[-2000:]
    assert events(out) == events(whole)
    assert final_state(out) == final_state(whole)
    assert metrics(out) == metrics(whole)
    state = final_state(out)
    assert (state["model_rows"], state["agent_rows"]) == metric_rows(out)


def _terminated(process: subprocess.Popen) -> str:
    """SIGTERM sent to a run, which must end as terminated by it; what it printed on stderr."""
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err[-2000:]
    return err


# When a kill may come: while loading (no checkpoint yet), or a little after the first checkpoint at or after one of
# these times.
KILL_AFTER = (None, "2023-02-13T00:00", "2023-02-13T00:15", "2023-02-13T00:45", "2023-02-13T01:30")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_run_killed_at_a_random_moment_resumes_to_the_same_end(whole, tmp_path, seed):
    rng = random.Random(seed)
    after, delay = rng.choice(KILL_AFTER), rng.uniform(0, 0.25)  # a simulated hour takes ~0.5 s
    out = tmp_path / "run"
    state = out / "checkpoint" / "state.json"
    process = start("simulate", *ARGS, "--out", str(out))
    if after is None:
        wait_for(lambda: (out / ".lock").is_file() or process.poll() is not None)
    else:
        wait_for(lambda: reached(state, after) or process.poll() is not None)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    at = json.loads(state.read_text())["now"] if state.is_file() else "none"
    print(f"seed {seed}: killed {delay:.2f} s after {after or 'the lock'}; last checkpoint: {at}")
    if not (out / "config.json").is_file():  # killed before the run existed: it is simply started again
        result = run("simulate", *ARGS, "--out", str(out))
    else:
        result = run("resume", str(out))
    _assert_same_end(result, out, whole)


def _simulate_until_sigterm(out: Path, ready) -> str:
    """A run into `out`, sent SIGTERM once `ready()` holds (or it ended first); what it printed on stderr."""
    process = start("simulate", *ARGS, "--out", str(out))
    wait_for(lambda: ready() or process.poll() is not None)
    return _terminated(process)


@pytest.mark.slow
def test_sigterm_writes_a_checkpoint_and_the_run_resumes_to_the_same_end(whole, tmp_path):
    out = tmp_path / "run"
    state = out / "checkpoint" / "state.json"
    err = _simulate_until_sigterm(out, lambda: reached(state, "2023-02-13T00:15"))
    assert "checkpoint written; continue with: run.py resume" in err
    stopped_at = json.loads(state.read_text())["now"]
    assert stopped_at < "2023-02-13T02:00:00"
    assert not (out / "checkpoint" / "state.json.tmp").exists()
    _assert_same_end(run("resume", str(out)), out, whole)


@pytest.mark.slow
def test_sigterm_while_loading_checkpoints_step_zero_and_the_run_resumes(whole, tmp_path):
    out = tmp_path / "run"
    _simulate_until_sigterm(out, (out / "config.json").is_file)
    assert json.loads((out / "checkpoint" / "state.json").read_text())["now"] == "2023-02-13T00:00:00"
    _assert_same_end(run("resume", str(out)), out, whole)


@pytest.mark.slow
def test_two_resumes_at_once_one_refused_nothing_doubled(whole, tmp_path):
    out = tmp_path / "run"
    assert (
        main(["simulate", *FAST, "--until", "2023-02-13T00:15", "--checkpoint-minutes", "15", "--out", str(out)]) == 0
    )
    config = json.loads((out / "config.json").read_text())
    config["end"] = "2023-02-13T02:00:00"
    (out / "config.json").write_text(json.dumps(config))
    first = start("resume", str(out))
    wait_for(lambda: (out / ".lock").read_text().strip() == str(first.pid) or first.poll() is not None)
    assert first.poll() is None, first.communicate()[1][-2000:]
    # Held still while the second starts (its imports take longer than the first's two hours took once): the lock
    # is the first's for as long as the second tries.
    first.send_signal(signal.SIGSTOP)
    try:
        second = run("resume", str(out))
    finally:
        first.send_signal(signal.SIGCONT)
    first.communicate(timeout=300)
    assert first.returncode == 0
    record(["resume", str(out)], second.returncode, second.stderr)
    assert second.returncode == 1
    assert f"another process (pid {first.pid}) is writing to this run folder" in second.stderr
    assert events(out) == events(whole)  # stored once, not twice
    assert final_state(out) == final_state(whole)


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_ends_its_page_server_on_a_signal(number):
    port = free_port()
    process, _ = serve_page(*FAST, port=port, timeout_s=180)
    try:
        process.send_signal(number)
        printed, _ = process.communicate(timeout=60)
        assert process.returncode == 128 + number
        assert "the page server has ended" in printed.decode()
        wait_for(lambda: not _answers(port), timeout=10)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.slow
def test_serve_killed_outright_takes_its_page_server_with_it():
    port = free_port()
    process, _ = serve_page(*FAST, port=port, timeout_s=180)
    try:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
        wait_for(lambda: not _answers(port), timeout=20)  # the kernel tells the server its parent died
    finally:
        if process.poll() is None:
            process.kill()


def _small_files() -> None:
    """In the child: files may not grow past 160 KB (a full disk, for this process only); writes past it fail."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (160_000, resource.RLIM_INFINITY))


@pytest.mark.slow
def test_a_write_that_fails_names_the_file_keeps_the_checkpoint_and_resumes(whole, tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "run.py", "simulate", *ARGS, "--out", str(out)]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, preexec_fn=_small_files
    )
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(errors) == 1 and ": cannot be written (" in errors[0], result.stderr[-2000:]
    assert "the last good checkpoint (2023-02-13 " in errors[0] and f"run.py resume {out}" in errors[0]
    resumed = run("resume", str(out))
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert events(out) == events(whole)
    assert final_state(out) == final_state(whole)
