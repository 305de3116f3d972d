"""The packages import downward only: smallville -> agents -> (memory, environment)."""

import ast
from functools import cache
from pathlib import Path

import networkx as nx
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


@cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks of a session."""
    return ast.parse(path.read_text(), filename=str(path))


def _project_imports(path: Path) -> set[str]:
    tree = parsed(path)
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


def _module_level_environment_writes(path: Path) -> list[int]:
    """Lines outside any function or class that write os.environ (an assignment, setdefault, update, pop)."""
    tree = parsed(path)
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in ast.walk(node):
            text = ast.unparse(inner) if isinstance(inner, ast.Call | ast.Assign | ast.AugAssign) else ""
            if text.startswith("os.environ") and ("=" in text or "(" in text):
                found.append(inner.lineno)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_writes_the_environment_at_import(package):
    writes = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / package).rglob("*.py")
        if (lines := _module_level_environment_writes(path))
    }
    assert not writes, f"os.environ written at import time: {writes}"


def test_the_page_server_gets_solaras_settings_from_serve():
    text = (ROOT / "smallville" / "commands" / "serve.py").read_text()
    assert '"SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False"' in text


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, known: set[str]) -> set[str]:
    """The project's modules a file imports, function-local imports included, imports under TYPE_CHECKING aside."""
    tree = parsed(path)
    type_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            module = name
            while module and module not in known:
                module = module.rpartition(".")[0]
            if module:
                found.add(module)
    return found


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, across our four packages (a package's own __init__ is not an edge to itself)."""
    paths = {_module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(paths)
    for name, path in paths.items():
        for target in _imported_modules(path, set(paths)):
            if target != name and not name.startswith(target + "."):
                graph.add_edge(name, target)
    return graph


def test_no_import_circles_even_through_late_imports():
    circles = [sorted(group) for group in nx.strongly_connected_components(import_graph()) if len(group) > 1]
    assert not circles, f"modules that import each other (directly or round a circle): {circles}"


def test_a_circle_is_found_when_there_is_one():
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    assert [sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1] == [["a", "b", "c"]]


# smallville/ uses agents/ through `agents` and its documented faces (agents.language, agents.cognition): an import
# of the form `from agents.x.y import` reaches past them. Each one left is named here with its reason.
DEEP_IMPORTS_ALLOWED: dict[str, str] = {}


def test_smallville_uses_agents_through_its_faces():
    deep = {}
    for path in (ROOT / "smallville").rglob("*.py"):
        for node in ast.walk(parsed(path)):
            module = node.module if isinstance(node, ast.ImportFrom) and node.level == 0 else None
            if (
                module
                and module.startswith("agents.")
                and module.count(".") >= 2
                and module not in DEEP_IMPORTS_ALLOWED
            ):
                deep.setdefault(module, []).append(str(path.relative_to(ROOT)))
    assert not deep, f"deep imports of agents/ (use the package's face, or name the reason here): {deep}"


# The offline mind is a backend: the gateway's offline backend reaches it, and its own modules import each other.
# Nothing else (the agent, the offline judge, the town) may lean on its internals: what they share with it is
# English (agents/language/english/), a room of its own.
OFFLINE_MIND = "agents.language.offline"
OFFLINE_MIND_USERS = {"agents.language.backends.offline"}


def test_only_the_offline_backend_reaches_the_offline_mind():
    graph = import_graph()
    users = {
        module
        for module, target in graph.edges
        if (target == OFFLINE_MIND or target.startswith(OFFLINE_MIND + "."))
        and not (module == OFFLINE_MIND or module.startswith(OFFLINE_MIND + "."))
    }
    assert users <= OFFLINE_MIND_USERS, (
        f"modules leaning on the offline mind's internals: {sorted(users - OFFLINE_MIND_USERS)}"
    )
