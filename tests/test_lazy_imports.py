"""Every module imported on first use (a function-local import, or a package's name loaded on demand) exists.

A late import is only found broken when its code runs; `--embedder provider/model` once failed that way for a user.
"""

import ast
import importlib
from pathlib import Path

import pytest

import agents

pytestmark = pytest.mark.slow  # imports litellm, solara and mesa-llm: about 20 s

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agents", "smallville", "memory", "environment")


def late_imports() -> set[str]:
    """Modules named by imports inside functions, across our packages."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(), filename=str(path))
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                        found.add(node.module)
                    elif isinstance(node, ast.Import):
                        found.update(alias.name for alias in node.names)
    return found


def test_there_are_late_imports_to_check():
    assert {"agents.language.embeddings", "smallville.model"} <= late_imports()


@pytest.mark.parametrize("module", sorted(late_imports()))
def test_each_late_import_resolves(module):
    importlib.import_module(module)


@pytest.mark.parametrize("name", sorted(agents._ON_FIRST_USE))
def test_each_name_loaded_on_demand_exists(name):
    assert getattr(agents, name).__name__ == name
