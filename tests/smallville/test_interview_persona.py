"""`run.py interview --as PERSONA` on an offline run says, once, that the persona changes nothing offline."""

from types import SimpleNamespace

import pytest

from smallville.baseline import OFFLINE_ANSWERS
from smallville.cli import main
from smallville.commands import interview

KLAUS = "Klaus Mueller"


class _Town:
    """The little of a loaded run an interview reads: one agent, its mind's model, and an answer."""

    def __init__(self, llm: str) -> None:
        self.people = [SimpleNamespace(name=KLAUS)]
        self.by_name = {KLAUS: self.people[0]}
        self.gateway = SimpleNamespace(config=SimpleNamespace(model=llm, routes={}))

    def interview(self, name: str, question: str, *, remember: bool, asker: str) -> str:
        return "I am working on my paper."

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("llm", "extra", "noted"),
    [
        ("offline", ["--as", "a news reporter"], True),
        ("offline", [], False),
        ("gpt-4o-mini", ["--as", "a reporter"], False),
    ],
)
def test_only_an_offline_interview_as_a_persona_says_the_persona_changes_nothing(
    llm, extra, noted, monkeypatch, capsys
):
    store = SimpleNamespace(config=lambda: {"llm": llm}, close=lambda: None)  # the run's config.json, as read
    monkeypatch.setattr(interview, "load_run", lambda *args, **kwargs: (_Town(llm), store))
    assert main(["interview", "/some/run", KLAUS, "What are you doing?", *extra]) == 0
    printed = capsys.readouterr()
    assert printed.out == f"{KLAUS}: I am working on my paper.\n"  # the answer stays alone on stdout, for scripts
    assert printed.err.count(OFFLINE_ANSWERS) == (1 if noted else 0)
