"""Agent names on the command line: matched without regard to case or spacing, a typo answered with a suggestion."""

import pytest

from smallville.scenarios.agent_names import UnknownAgent, resolve_agent

NAMES = ["Isabella Rodriguez", "Klaus Mueller", "Maria Lopez", "Mei Lin"]


@pytest.mark.parametrize(
    ("given", "resolved"),
    [("Klaus Mueller", "Klaus Mueller"), ("klaus mueller", "Klaus Mueller"), ("  MEI   lin ", "Mei Lin")],
    ids=["exact", "lower-case", "case-and-spaces"],
)
def test_names_match_without_regard_to_case(given, resolved):
    assert resolve_agent(given, NAMES) == resolved


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("Klaus Muller", "no agent named 'Klaus Muller' in this run; did you mean 'Klaus Mueller'?"),
        ("isabela rodrigues", "did you mean 'Isabella Rodriguez'?"),
        ("Zed", "no agent named 'Zed' in this run; choose from: Isabella Rodriguez, Klaus Mueller, Maria Lopez"),
    ],
    ids=["typo", "typo-lower-case", "nobody-close"],
)
def test_an_unknown_name_is_answered_with_the_closest(given, message):
    with pytest.raises(UnknownAgent, match=message.replace("?", r"\?").replace("(", r"\(")):
        resolve_agent(given, NAMES)
