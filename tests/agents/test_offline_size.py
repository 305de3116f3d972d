"""The offline rooms' size budgets (DESIGN.md, "Language models"; docs/cognition.md, "One grammar, and a size budget").

The offline mind (agents/language/offline/, what answers an agent's requests) stays smaller than the cognition it
stands in for (agents/cognition/). The English it shares with the agent and the offline judge
(agents/language/english/: the verbs' person, one's own voice, names and dates) and the offline judge
(agents/language/offline_judge/, which stands in for the judge model, not the cognition) each have a budget of their
own, their measured size, which they may only shrink below: neither is a place to move the mind's rules to. All are
measured as `wc -l` of each folder's modules.
"""

from pathlib import Path

AGENTS = Path(__file__).resolve().parents[2] / "agents"
# The shared English's lines when it left the offline mind's room (issue 49): the morphology, one's own voice (used
# by the agent for whispers and seeds whatever the model) and the words the judge reads by.
ENGLISH_CEILING = 171
# The offline judge's lines with its own reading of sentences (issue 49, item 6): its budget.
JUDGE_CEILING = 542


def lines_in(folder: Path) -> int:
    """Lines of the folder's modules, as `wc -l folder/*.py` counts them."""
    return sum(path.read_bytes().count(b"\n") for path in folder.glob("*.py"))


def test_the_offline_mind_stays_smaller_than_the_cognition_it_stands_in_for() -> None:
    offline, cognition = lines_in(AGENTS / "language" / "offline"), lines_in(AGENTS / "cognition")
    assert offline < cognition, f"the offline mind has {offline} lines; its budget is the cognition's {cognition}"


def test_the_shared_english_grows_no_larger_than_its_budget() -> None:
    english = lines_in(AGENTS / "language" / "english")
    assert english <= ENGLISH_CEILING, f"the shared English has {english} lines; its budget is {ENGLISH_CEILING}"


def test_the_offline_judge_grows_no_larger_than_its_budget() -> None:
    judge = lines_in(AGENTS / "language" / "offline_judge")
    assert judge <= JUDGE_CEILING, f"the offline judge has {judge} lines; its budget is {JUDGE_CEILING}"
