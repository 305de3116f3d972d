"""Persona fixtures shared by the agents' tests."""

from datetime import date, datetime
from functools import cache
from pathlib import Path

from agents import AgentStatus
from agents.persona import load_persona, load_whispers

DATA = Path(__file__).resolve().parents[2] / "data" / "the_ville"
DAY = date(2023, 2, 13)
NOON = datetime(2023, 2, 13, 12, 0)


@cache
def identity(name: str):
    whispers = load_whispers(DATA / "agent_history_init_n25.csv")
    return load_persona(DATA / "base_the_ville_n25" / "personas", name, whispers).identity


def status(name, activity="reading", *, sleeping=False, talking_with=None, ends=None, address="the Ville"):
    """How the others see `name` now: awake and reading in the Ville by default."""
    return AgentStatus(name, (0, 0), activity, address, sleeping, talking_with, ends)
