"""memory/ knows nothing of language models or the layers above it: it imports none of them, even lazily."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"agents", "environment", "smallville", "litellm", "mesa_llm", "mesa", "torch", "sentence_transformers"}

USE_EVERYTHING = """
import sys, tempfile, datetime, pathlib
import memory
stream = memory.MemoryStream(dim=384)
for name in ("hashing", "minilm"):
    vector = memory.make_embedder(name).embed(["Isabella is planning a party"])[0]
    stream.add("event", name, created=datetime.datetime(2023, 2, 13), importance=3, embedding=vector)
stream.retrieve(vector, now=datetime.datetime(2023, 2, 14))
with memory.MemoryStore(pathlib.Path(tempfile.mkdtemp()) / "m.sqlite") as store:
    store.save("A", stream)
    store.load("A")
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


@pytest.mark.slow  # imports the package in a new Python process
def test_using_the_whole_package_loads_no_language_model_or_upper_layer():
    loaded = subprocess.run(
        [sys.executable, "-c", USE_EVERYTHING], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert "memory" in loaded
    assert FORBIDDEN.isdisjoint(loaded), FORBIDDEN & set(loaded)


def test_no_module_of_memory_imports_them_even_inside_a_function():
    found = {}
    for path in (ROOT / "memory").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module.split(".")[0]}
            else:
                continue
            if names & FORBIDDEN:
                found[path.name] = sorted(names & FORBIDDEN)
    assert found == {}
