"""`run.py serve`: the browser app (Solara), live on a new model or replaying a run folder, on 127.0.0.1.

The options are checked here, so a mistake is one clear line instead of an error page; then `solara run` serves
smallville.app.page in production mode, with its JavaScript from the local asset cache (solara-assets), no
telemetry and no version check: neither the page nor the server makes a request beyond this machine.

"starting..." is printed at once and "ready: URL" once the page answers (the server takes 5-30 s to import and build
the town; a URL printed before would fail its first click). Listening beyond the loopback is warned about in one
line: the page steers the town (run, whisper, set, join), and it has no login.

The server runs in its own process group; SIGTERM or Ctrl-C to `run.py serve` ends that whole group (and the
server is told to end if `run.py serve` itself dies), so no page server is left answering on the port.
"""

import argparse
import contextlib
import ctypes
import errno
import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from smallville.app.replay import ReplayModel
from smallville.cli import UserError
from smallville.commands.loading import checked_town
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import check_databases, read_config, read_snapshot
from smallville.runs.store import RunFolderError
from smallville.scenarios.scenario import ScenarioError
from smallville.settings.parameters import BY_NAME, defaults, from_arguments

ROOT = Path(__file__).resolve().parents[2]


def settings_for(args: argparse.Namespace) -> dict:
    """What the page builds: the replay of a run folder, or a model with the command line's arguments.

    Raises:
        UserError: For model options given with a run folder: a replay makes no model, so they would do nothing.
    """
    if args.replay_run:
        given = [name for name, value in from_arguments(args).items() if value != defaults()[name]]
        if given:
            flags = ", ".join(BY_NAME[name].cli_flag for name in given)
            raise UserError(
                f"{flags}: a replay of {args.replay_run} shows the run as it was and builds no model; drop "
                f"{'them' if len(given) > 1 else 'it'}, or serve a new town without the run folder"
            )
        settings = {"replay": str(Path(args.replay_run).resolve())}
        if args.beside:  # a second run on the same time slider (smallville/app/side_by_side.py)
            settings["beside"] = str(Path(args.beside).resolve())
        return settings
    if args.beside:
        raise UserError("--beside: give a run to replay first: run.py serve RUN --beside OTHER_RUN")
    return {"model": from_arguments(args)}


def check(settings: dict) -> None:
    """Fail before the server starts when the scenario, the model name or the run folder is wrong.

    Raises:
        UserError: Naming what is wrong and how to fix it.
    """
    try:
        if "replay" in settings:
            folder = RunFolder(Path(settings["replay"]))
            read_config(folder)
            check_databases(folder)
            if read_snapshot(folder) is None:
                raise RunFolderError(f"{folder.root}: no checkpoint yet; wait for the run's first one")
            ReplayModel(run_folder=settings["replay"]).close()
            if "beside" in settings:
                ReplayModel(run_folder=settings["beside"]).close()
            return
        checked_town(settings["model"])
    except (ValueError, ScenarioError, RunFolderError) as error:
        raise UserError(str(error).splitlines()[0]) from error


def solara_command(host: str, port: int) -> list[str]:
    """The `solara run` command line for the page."""
    return [
        sys.executable,
        "-m",
        "solara",
        "run",
        "smallville.app.page",
        "--host",
        host,
        "--port",
        str(port),
        "--no-open",
        "--production",
        "--no-check-version",  # otherwise solara asks pypi.org for its newest version at every start
    ]


def check_address(host: str, port: int) -> None:
    """Fail before the server starts when --host:--port cannot be listened on.

    Otherwise the page server printed uvicorn's error after "starting the page server on ...", and the page never
    came.

    Raises:
        UserError: Naming the flag and what to do.
    """
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a socket closing is no bar
        try:
            probe.bind((host, port))
        except socket.gaierror:
            raise UserError(f"--host {host}: not a name or address this machine knows; give e.g. 127.0.0.1") from None
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise UserError(
                    f"--port {port}: {host}:{port} is in use by another program; give another --port, or stop it"
                ) from None
            raise UserError(f"--host {host} --port {port}: cannot listen there ({error.strerror})") from None


def run(args: argparse.Namespace) -> int:
    """Check the options, then serve the page until interrupted."""
    if not args.host.strip():  # the server would take "" for every interface: not what an empty value says
        raise UserError("--host is empty; give 127.0.0.1 (this machine only), or 0.0.0.0 for every interface")
    settings = settings_for(args)
    check(settings)
    check_address(args.host, args.port)
    env = {
        **os.environ,
        "SMALLVILLE_SERVE": json.dumps(settings),
        "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False",
        "SOLARA_THEME_SHOW_BANNER": "False",  # Solara's "This website runs on Solara" lay over the inspector
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env["PYTHONWARNINGS"] = ",".join(filter(None, [os.environ.get("PYTHONWARNINGS"), QUIET_COOKIE]))
    url = f"http://{_in_url(args.host)}:{args.port}"
    if not loopback(args.host):
        print(f"warning: --host {args.host} listens beyond this machine: anyone who can reach {url} can steer "
              "the town (run it, whisper, set objects, join); use 127.0.0.1 unless meant", file=sys.stderr)  # fmt: skip
    print(f"starting the page server on {url} (the town loads first)...", file=sys.stderr)
    server = subprocess.Popen(
        solara_command(args.host, args.port),
        env=env,
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=_end_with_parent,  # noqa: PLW1509 - only prctl, async-signal-safe
    )
    probe = f"http://{_in_url(_probe_host(args.host))}:{args.port}/"
    threading.Thread(target=announce_when_ready, args=(server, probe, url), daemon=True).start()
    return serve_until_stopped(server)


# Solara's warning at every page load over plain http on a name other than localhost (its cookie falls back to
# samesite=lax, which is what a page served to this machine wants): silenced, a PYTHONWARNINGS filter.
QUIET_COOKIE = "ignore:Cookies with samesite=none require https:UserWarning"
# How long `announce_when_ready` asks for the page, and how often.
READY_WAIT_S = 600
READY_POLL_S = 0.5


def loopback(host: str) -> bool:
    """Whether --host is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def announce_when_ready(server: subprocess.Popen, probe: str, url: str) -> None:
    """Print "ready: URL" once the page answers (asked at `probe`); nothing if the server ends first."""
    deadline = time.monotonic() + READY_WAIT_S
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # this machine: never through a proxy
    while server.poll() is None and time.monotonic() < deadline:
        try:
            with direct.open(probe, timeout=5) as answer:
                if answer.status == 200:
                    print(f"ready: {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
                    return
        except OSError:
            pass
        time.sleep(READY_POLL_S)


def _probe_host(host: str) -> str:
    """Where this machine reaches the server: every interface (0.0.0.0, ::) is reached on the loopback."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "[::]": "::1"}.get(host.strip(), host)


def _in_url(host: str) -> str:
    return f"[{host.strip('[]')}]" if ":" in host else host


# How long the server may take to end after SIGTERM before it is killed.
STOP_GRACE_S = 10


def serve_until_stopped(server: subprocess.Popen) -> int:
    """Wait for the server; on SIGTERM or SIGINT end its whole process group, then return 128 + the signal."""
    received = []

    def stop(number: int, frame) -> None:
        received.append(number)
        _end_group(server, signal.SIGTERM)

    previous = {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        code = server.wait()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if server.poll() is None:
            _end_group(server, signal.SIGTERM)
        try:
            server.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            _end_group(server, signal.SIGKILL)
            server.wait()
        _end_group(server, signal.SIGKILL)  # anything the server itself started and left behind
    if received:
        print(f"stopped by {signal.Signals(received[0]).name}; the page server has ended", file=sys.stderr)
        return 128 + received[0]
    return code


def _end_group(server: subprocess.Popen, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.pid, number)


def _end_with_parent() -> None:
    """In the server's process: ask Linux to send it SIGTERM when `run.py serve` dies, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
