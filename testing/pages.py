"""The browser page as a process: `run.py serve` on a free loopback port, started and waited for until it answers.

Tests, benchmarks and the screenshot scripts all need the page server running before they can drive it, and each
once wrote its own port probe and polling loop; this is the one copy. A port from `free_port` is free when asked and
may be taken by another process before the server binds it: the server then ends at once, and `serve_page` says so
with what it printed, instead of waiting out its time.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

# The checkout's root, where run.py is: the page server runs from the repository, never from an installed wheel.
ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
# Debian's chromium, which playwright drives headless (playwright's own browsers are not installed).
CHROMIUM = "/usr/bin/chromium"
# How often the page is asked for while the server starts (it takes 3-10 s to import and build the town).
POLL_S = 0.3


class PageServer(NamedTuple):
    """A started page server: its process and the page's address (`process, url = serve_page(...)`)."""

    process: subprocess.Popen
    url: str


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def serve_page(
    *args: str,
    command: Sequence[str] | None = None,
    port: int | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    output: int = subprocess.PIPE,
    new_session: bool = False,
    timeout_s: float = 120.0,
) -> PageServer:
    """Start `run.py serve ARGS --port P` on a free port and return once its page answers 200.

    Args:
        *args: The arguments of `run.py serve` (a run folder, flags).
        command: The whole command instead (for `make serve`, say); it must listen on `port`, which is then given.
        port: The port to serve on (a free one by default).
        env: The server's whole environment (this process's by default).
        cwd: Where the command runs (the repository's root by default).
        output: Where the server's standard output and error go, as one stream: `subprocess.PIPE` (read
            `process.stdout` once it has ended) or `subprocess.DEVNULL`.
        new_session: Start the command in a session of its own, so that `stop_page` ends every process it started.
        timeout_s: How long the page may take to answer.

    Raises:
        RuntimeError: The server ended before its page answered, or did not answer within `timeout_s`; with the end of
            what it printed (if piped). The server is stopped first.
    """
    if command is None:
        port = port or free_port()
        command = [sys.executable, "run.py", "serve", *args, "--port", str(port)]
    elif port is None:
        raise ValueError("a command of its own needs the port it listens on")
    process = subprocess.Popen(
        list(command), cwd=cwd, env=None if env is None else dict(env), start_new_session=new_session,
        stdout=output, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://{HOST}:{port}/"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        if _answers(url):
            return PageServer(process, url)
        time.sleep(POLL_S)
    ended = process.poll()
    stop_page(process)  # what its session started too, before its output is read to the end
    why = f"ended with exit code {ended}" if ended is not None else f"did not answer within {timeout_s:.0f} s"
    raise RuntimeError(f"the page server {why}:\n{_printed(process)}")


def open_town(playwright, url: str, timeout_ms: int):
    """Headless chromium showing the page at `url` at 1600 x 1000, once its map has drawn its people.

    Returns the browser (close it when done) and its page.
    """
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(url)
    page.wait_for_selector(".town-people[data-people]", timeout=timeout_ms)  # town_map.vue's canvas, once drawn
    return browser, page


def stop_page(process: subprocess.Popen, timeout_s: float = 15.0) -> None:
    """End a page server: SIGTERM (to its whole session if it leads one), then SIGKILL if it has not ended in time."""
    try:
        leads_session = os.getpgid(process.pid) == process.pid
    except ProcessLookupError:  # already ended and reaped: only a session it led can outlive it
        leads_session = True
    for number in (signal.SIGTERM, signal.SIGKILL):
        try:
            if leads_session:
                os.killpg(process.pid, number)
            elif process.poll() is None:
                process.send_signal(number)
        except ProcessLookupError:
            pass  # nothing of it left to end
        try:
            process.wait(timeout=timeout_s)
            return
        except subprocess.TimeoutExpired:
            continue


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:  # refused while it starts, or an HTTP error (URLError and HTTPError are OSErrors)
        return False


def _printed(process: subprocess.Popen) -> str:
    """The end of what a piped server printed (nothing if its output went elsewhere)."""
    if process.stdout is None:
        return ""
    return process.stdout.read().decode(errors="replace")[-3000:]
