"""Fixtures the smallville tests share: a copy of a module's finished run folder to damage, and quick model faults."""

import shutil
from pathlib import Path

import pytest

from agents.language import gateway
from agents.language.backends.litellm_backend import LiteLLMBackend

# The model calls' timeout under `quick_faults` (a loopback server's hang lasts longer, so it is a timeout to retry).
TIMEOUT_S = 1.0


@pytest.fixture
def run(finished, tmp_path) -> Path:
    """A copy of the module's `finished` run folder (a fixture each module that asks for `run` defines), to damage."""
    copy = tmp_path / "run"
    shutil.copytree(finished, copy)
    return copy


@pytest.fixture
def quick_faults(monkeypatch):
    """A short model timeout and backoff (the defaults, 60 s and 0.5 s doubling, only make the test slow)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    monkeypatch.setattr(gateway, "BACKOFF_S", 0.01)
    original = LiteLLMBackend.__init__

    def short_timeout(self, model, **options):
        original(self, model, **{**options, "timeout_s": TIMEOUT_S})

    monkeypatch.setattr(LiteLLMBackend, "__init__", short_timeout)
