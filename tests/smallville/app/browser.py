"""What the browser tests share: Debian's chromium, their marks, the page server behind a recording proxy, and the
check that the page stayed on this machine. Their fixtures (`outside`, `browser_page`) are in conftest.py."""

import os
import shutil
import socketserver
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from testing import serve_page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# Each browser test module's `pytestmark`.
BROWSER_MARKS = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)"),
]


class Recorder(socketserver.BaseRequestHandler):
    """A proxy's handler that answers nothing and remembers each request's first line (in `server.seen`)."""

    def handle(self) -> None:
        first = self.request.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
        self.server.seen.append(first)
        self.request.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")


def serve(outside, *args, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """Start `run.py serve` (with `env` added to this process's environment) and wait until it answers.

    Its HTTP(S) proxy is `outside`, so a request it tried to make beyond this machine is recorded there.
    """
    proxy = f"http://127.0.0.1:{outside.server_address[1]}"
    env = {**os.environ, **(env or {}), "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    env.update({name: proxy for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")})
    return serve_page(*args, env=env)


def assert_stayed_home(page, outside) -> None:
    """Every request of the page went to 127.0.0.1 and succeeded, and the server sent none beyond this machine."""
    network = [url for url in page.requests if urlsplit(url).scheme in {"http", "https", "ws", "wss"}]
    assert {urlsplit(url).scheme for url in page.requests} <= {"http", "ws", "data", "blob"}
    assert {urlsplit(url).hostname for url in network} == {"127.0.0.1"}
    assert page.failures == []
    assert outside.seen == []


def run_to(page, clock: str) -> None:
    """The page's own "Run to", waited for on the clock."""
    from playwright.sync_api import expect

    page.get_by_label("Run to (HH:MM)").fill(clock)
    page.get_by_role("button", name="Run to", exact=True).click()
    expect(page.locator(".town-clock")).to_contain_text(f"{clock}:00", timeout=120_000)


def open_building(page, name: str) -> None:
    """Click a building's name on the map until its box opens (a click landing while the map redraws is lost)."""
    from playwright.sync_api import TimeoutError as Timeout

    for _ in range(3):
        label = page.locator(f".place-label.sector[data-text='{name}']").bounding_box()
        page.mouse.click(label["x"] + 2, label["y"] + label["height"] / 2)
        try:
            page.locator(".place-info").wait_for(timeout=10_000)
            return
        except Timeout:
            continue
    raise AssertionError(f"the map opened no box for {name}")
