"""A small live town caught mid-conversation, and a run folder of the same town to replay."""

import subprocess
import sys
from pathlib import Path

import pytest

from smallville.app.selection import selected_agent
from smallville.app.voice import answer, voice_error

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
    """Each test starts with no agent selected (the inspector then shows the first) and nothing said in the box."""
    for state in (selected_agent, answer, voice_error):
        state.set("")
    yield
    for state in (selected_agent, answer, voice_error):
        state.set("")
