"""The offline rooms' size budgets (DESIGN.md, "Language models"; docs/cognition.md, "One grammar, and a size budget").

The offline mind (agents/language/offline/, what answers an agent's requests) stays smaller than the cognition it
stands in for (agents/cognition/). It is not under it yet: the test holds its measured size as a ceiling, so it can
only shrink; lower OFFLINE_CEILING whenever it does, and once it is under the cognition's size, the test holds it
there. The offline judge (agents/language/offline_judge/, what answers the evaluation's requests) stands in for the
judge model, not the cognition: its budget is its measured size, JUDGE_CEILING. Both are measured as `wc -l` of each
folder's modules.
"""

from pathlib import Path

AGENTS = Path(__file__).resolve().parents[2] / "agents"
# The offline mind's lines when this ceiling was last measured (the budget proper is the cognition's size); 1372
# + 2 for own_voice's patterns compiled once per name (0.93 -> 0.28 ms a call among 1,000 names), + 3 for naming
# what a plan joins ("joining Isabella Rodriguez, who is having a party"; 2 of 12 invitees there for it without).
OFFLINE_CEILING = 1377
# The offline judge's lines with its own reading of sentences (issue 49, item 6): its budget.
JUDGE_CEILING = 542


def lines_in(folder: Path) -> int:
    """Lines of the folder's modules, as `wc -l folder/*.py` counts them."""
    return sum(path.read_bytes().count(b"\n") for path in folder.glob("*.py"))


def test_the_offline_mind_grows_no_larger_than_its_budget() -> None:
    offline, cognition = lines_in(AGENTS / "language" / "offline"), lines_in(AGENTS / "cognition")
    assert offline <= max(cognition, OFFLINE_CEILING), (
        f"the offline mind has {offline} lines; its budget is the cognition's {cognition} "
        f"(a ceiling of {OFFLINE_CEILING} until it gets there)"
    )


def test_the_offline_judge_grows_no_larger_than_its_budget() -> None:
    judge = lines_in(AGENTS / "language" / "offline_judge")
    assert judge <= JUDGE_CEILING, f"the offline judge has {judge} lines; its budget is {JUDGE_CEILING}"
