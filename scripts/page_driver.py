"""What the screenshot scripts share: a page server on a free loopback port, and the page's own "Run to"."""

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def serve(*args: str) -> tuple[subprocess.Popen, str]:
    """Start `run.py serve ARGS` on a free loopback port and wait until it answers (within 2 minutes)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "run.py", "serve", *args, "--port", str(port)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(240):
        try:
            with urllib.request.urlopen(url, timeout=2):
                return server, url
        except OSError:
            time.sleep(0.5)
    server.kill()
    raise SystemExit("the page server did not answer within 2 minutes")


def run_to(page, clock: str, timeout_ms: int = 180_000) -> None:
    """Move the town (or the replay) to a time of day (HH:MM) with the page's own "Run to"."""
    page.get_by_label("Run to (HH:MM)").fill(clock)
    page.get_by_role("button", name="Run to", exact=True).click()
    page.wait_for_function(
        f"() => document.querySelector('.town-clock').innerText.includes('{clock}:00')", timeout=timeout_ms
    )
    page.wait_for_timeout(1500)


def zoom_to_building(page, name: str, wheel_steps: int, settle_ms: int) -> None:
    """Zoom the map in on a building with the mouse wheel at its name, and let the map settle."""
    label = page.locator(f".place-label.sector[data-text='{name}']").bounding_box()
    page.mouse.move(label["x"] + label["width"] / 2, label["y"] + label["height"] / 2)
    for _ in range(wheel_steps):
        page.mouse.wheel(0, -100)
        page.wait_for_timeout(150)
    page.wait_for_timeout(settle_ms)
