"""A small live town caught mid-conversation, a run folder of the same town to replay, and the browser tests' own
fixtures: a proxy that records what leaves the machine, and a page in Debian's chromium."""

import socketserver
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from smallville.app.controls import clear_boxes
from smallville.app.selection import selected_agent
from tests.smallville.app.browser import CHROMIUM, FLAGS, Recorder

ROOT = Path(__file__).resolve().parents[3]
FAST = {"scenario_name": "the_ville_n3", "embedder": "hashing"}


@pytest.fixture(scope="module")
def talking_model():
    """The three-agent town stepped until its first conversation has two lines (about 11:37 on day one)."""
    from smallville.model import SmallvilleModel

    model = SmallvilleModel(**FAST)
    while not (model.conversations and len(model.conversations[0].lines) >= 2):
        model.step()
        assert model.step_count < 6 * 60 * 24, "no conversation in a whole day"
    yield model
    model.close()


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory) -> Path:
    """The three-agent town run from midnight to 14:00 by `run.py simulate` (hourly checkpoints; their first talk)."""
    out = tmp_path_factory.mktemp("runs") / "n3"
    command = [sys.executable, "run.py", "simulate", "--scenario", "the_ville_n3", "--embedder", "hashing"]
    command += ["--until", "2023-02-13T14:00", "--out", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, timeout=300)
    return out


@pytest.fixture(autouse=True)
def no_selection():
    """Each test starts with no agent selected (the inspector then shows the first) and nothing said in any box.

    The boxes' messages are the page's module-level state: a test elsewhere in the same process (the fuzzed doors)
    leaves its last refusal there, as a Reset would clear it (clear_boxes).
    """
    selected_agent.set("")
    clear_boxes()
    yield
    selected_agent.set("")
    clear_boxes()


@pytest.fixture(scope="module")
def outside():
    """A proxy that answers nothing and remembers every request sent through it."""
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Recorder)
    server.seen = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


@pytest.fixture
def browser_page():
    """A page of Debian's headless chromium that records its requests (`page.requests`) and failures (`failures`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.requests, page.failures = [], []
        page.on("request", lambda request: page.requests.append(request.url))
        page.on("response", lambda response: response.status >= 400 and page.failures.append(response.url))
        yield page
        browser.close()
