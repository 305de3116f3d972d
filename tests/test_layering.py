"""The packages import downward only: smallville -> agents -> (memory, environment)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("smallville", "agents", "memory", "environment")
# What each package may import from the project's own packages.
ALLOWED = {
    "environment": set(),
    "memory": set(),
    "agents": {"memory", "environment"},
    "smallville": {"agents", "memory", "environment"},
}


def _project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in PACKAGES)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_only_downward(package):
    bad = {}
    for path in (ROOT / package).rglob("*.py"):
        extra = _project_imports(path) - ALLOWED[package] - {package}
        if extra:
            bad[str(path.relative_to(ROOT))] = sorted(extra)
    assert not bad, f"upward or sideways imports: {bad}"


def test_memory_and_environment_do_not_import_language_model_libraries():
    for package in ("memory", "environment"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            assert "import litellm" not in text and "from litellm" not in text, path


@pytest.mark.parametrize(
    ("package", "variable"),
    [
        ("smallville", "LITELLM_LOCAL_MODEL_COST_MAP"),
        ("smallville", "SOLARA_TELEMETRY_MIXPANEL_ENABLE"),
    ],
)
def test_package_sets_stack_environment_before_libraries_load(package, variable):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"LITELLM_LOCAL_MODEL_COST_MAP", "SOLARA_TELEMETRY_MIXPANEL_ENABLE"}
    }
    code = f"import os, {package}; print(os.environ.get({variable!r}))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() in {"True", "False"}
    assert out.stdout.strip() == ("False" if variable.startswith("SOLARA") else "True")
