"""The faces of agents/: every exported name exists, and importing the package writes no environment variable."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.language.backends.litellm_import import LITELLM_ENVIRONMENT, import_litellm

ROOT = Path(__file__).resolve().parents[2]
FACES = ("agents.language", "agents.cognition")


@pytest.mark.parametrize("face", FACES)
def test_every_name_a_face_exports_exists(face):
    module = importlib.import_module(face)
    assert module.__doc__ and module.__all__
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


# A child process (an interpreter and the package's imports); tests/test_layering.py checks in the fast loop that no
# module of ours writes the environment at import, this checks what the import really does, libraries included.
@pytest.mark.slow
def test_importing_agents_leaves_the_environment_as_it_was():
    code = "import os; before = dict(os.environ); import agents; print(dict(os.environ) == before)"
    clean = {key: value for key, value in os.environ.items() if key not in LITELLM_ENVIRONMENT}
    out = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"


def test_litellm_is_imported_with_its_local_cost_map_and_quiet(monkeypatch):
    for variable in LITELLM_ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    litellm = import_litellm()
    assert {variable: os.environ.get(variable) for variable in LITELLM_ENVIRONMENT} == LITELLM_ENVIRONMENT
    assert litellm.suppress_debug_info is True


def test_a_value_the_user_set_is_kept(monkeypatch):
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "False")
    import_litellm()
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "False"


@pytest.mark.slow  # mesa-llm and litellm: about 5 s
def test_mesa_llm_through_stream_memory_gets_litellms_local_cost_map():
    code = "import os, agents; agents.StreamMemory; print(os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP'))"
    clean = {key: value for key, value in os.environ.items() if key not in LITELLM_ENVIRONMENT}
    out = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"
