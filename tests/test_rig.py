"""The test rig stays out of the product: no module of the product's packages imports `testing`, and nothing that
looks like a fake or a test server lives in them."""

import ast
import re
from pathlib import Path

import pytest

import testing

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("agents", "memory", "environment", "smallville")


def _imports_testing(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "testing" for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "testing":
            return True
    return False


@pytest.mark.parametrize("package", PRODUCT)
def test_the_product_never_imports_the_test_rig(package):
    found = [str(path.relative_to(ROOT)) for path in (ROOT / package).rglob("*.py") if _imports_testing(path)]
    assert found == []


@pytest.mark.parametrize("package", PRODUCT)
def test_no_loopback_server_or_fake_beside_the_product(package):
    found = [path.name for path in (ROOT / package).rglob("*.py") if re.search(r"loopback|fake_|_wires", path.name)]
    assert found == []


def test_the_rig_is_the_checkouts_and_exports_what_it_lists():
    assert Path(testing.__file__).resolve().parent == ROOT / "testing"
    assert all(hasattr(testing, name) for name in testing.__all__)
