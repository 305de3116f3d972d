"""Shared fixtures: the Ville loaded once per session, its path finder, and the 25 personas' files."""

import json
from pathlib import Path

import pytest

from environment import PathFinder, load_ville

DATA = Path(__file__).resolve().parents[2] / "data" / "the_ville"
PERSONAS = DATA / "base_the_ville_n25" / "personas"


@pytest.fixture(scope="session")
def ville():
    return load_ville(DATA)


@pytest.fixture(scope="session")
def paths(ville):
    return PathFinder(ville)


def persona_files(name: str) -> tuple[dict, dict]:
    """A persona's scratch.json and spatial_memory.json."""
    folder = PERSONAS / name / "bootstrap_memory"
    return json.loads((folder / "scratch.json").read_text()), json.loads((folder / "spatial_memory.json").read_text())


def all_personas() -> list[str]:
    return sorted(path.name for path in PERSONAS.iterdir())
