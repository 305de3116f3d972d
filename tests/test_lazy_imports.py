"""Every module imported on first use (a function-local import, or a package's name loaded on demand) exists.

A late import is only found broken when its code runs; `--embedder provider/model` once failed that way for a user.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

import agents
from smallville.cli import on_first_use

pytestmark = pytest.mark.slow  # imports litellm, solara and mesa-llm: about 20 s

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agents", "smallville", "memory", "environment")
INDENTED_IMPORT = re.compile(r"^[ \t]+(import|from)[ \t]", re.MULTILINE)


def late_imports() -> set[str]:
    """Modules named by imports inside functions, across our packages."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            if not INDENTED_IMPORT.search(text):
                continue  # an import inside a function is indented: a file without one has none (and is not parsed)
            tree = ast.parse(text, filename=str(path))
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
    assert {"agents.language.embeddings", "smallville.batch.ray_executor"} <= late_imports()


def cli_late_names() -> set[str]:
    """The `module:function` names the CLI loads when a command runs (cli.on_first_use): handlers and adders."""
    found = set()
    for node in ast.walk(ast.parse((ROOT / "smallville" / "cli.py").read_text())):
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
        if text.startswith("smallville.") and not text.endswith(":"):
            found.add(text)
        elif text.startswith("add_") and text.endswith("arguments"):  # the parameter table's adders
            found.add(f"smallville.settings.parameters:{text}")
    return found


def test_every_command_the_cli_loads_late_is_named():
    names = cli_late_names()
    assert {"smallville.commands.simulate:run", "smallville.settings.parameters:add_batch_arguments"} <= names


@pytest.mark.parametrize("name", sorted(cli_late_names()))
def test_each_name_the_cli_loads_late_exists(name):
    assert callable(on_first_use(name))


@pytest.mark.parametrize("module", sorted(late_imports()))
def test_each_late_import_resolves(module):
    importlib.import_module(module)


@pytest.mark.parametrize("name", sorted(agents._ON_FIRST_USE))
def test_each_name_loaded_on_demand_exists(name):
    assert getattr(agents, name).__name__ == name
