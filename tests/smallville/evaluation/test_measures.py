"""The measures by the paper's definitions, on hand-made records and logs whose figures are worked by hand."""

from datetime import datetime

import pytest

from memory import MemoryNode, NodeKind
from smallville.evaluation.attendance import (
    ATTENDANCE_SHARE,
    Window,
    attendance,
    invitees,
    names_it,
    presence,
    there_for_it,
    to_ask,
    windows,
)
from smallville.evaluation.measures import (
    Learned,
    awareness,
    density,
    gathering_fact,
    hallucinations,
    knowing_graph,
    learned_from,
    mutual_graph,
    origin,
)
from smallville.scenarios.scenario import Gathering, TrackedFact

START = datetime(2023, 2, 13)
PARTY = TrackedFact(
    id="party", description="Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe",
    sources=["Isabella Rodriguez"], keywords=[["valentine*"], ["party"]],
)  # fmt: skip
GATHERING = Gathering(
    name="Valentine's Day party", place="the Ville:Hobbs Cafe",
    start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19),
)  # fmt: skip
CAFE = "the Ville:Hobbs Cafe:cafe"


def _node(kind, predicate="", partner=None, object="", created=START, subject=""):
    return MemoryNode(0, kind, created, "text", subject, predicate, object, partner=partner)


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (_node(NodeKind.EVENT), ("saw", None)),
        (_node(NodeKind.CHAT, "chat with", partner="Maria Lopez"), ("told", "Maria Lopez")),
        (_node(NodeKind.THOUGHT, "learned from", object="Maria Lopez"), ("told", "Maria Lopez")),
        (_node(NodeKind.THOUGHT, "was told"), ("whispered", None)),
        (_node(NodeKind.EVENT, "heard", subject="broadcast"), ("whispered", "broadcast")),
        (_node(NodeKind.THOUGHT), ("seeded", None)),
        (_node(NodeKind.THOUGHT, created=datetime(2023, 2, 13, 9)), None),
        (_node(NodeKind.THOUGHT, "plan"), None),
        (_node(NodeKind.REFLECTION, "reflects"), None),
        (_node(NodeKind.CHAT, "asked", partner="interviewer"), None),
    ],
    ids=["event-saw", "chat-told", "takeaway-told", "whisper", "broadcast", "seed", "later-thought", "plan",
         "reflection", "interview"],
)  # fmt: skip
def test_a_memory_says_how_it_came_to_its_holder(node, expected):
    assert origin(node, START) == expected


def _check(kind, agent, subject, shows, grounded, **extra):
    return {"kind": kind, "agent": agent, "subject": subject, "shows": shows, "grounded": grounded, **extra}


NAMES = ["Ayesha Khan", "Klaus Mueller", "Maria Lopez", "Isabella Rodriguez"]
CHECKS = [
    _check("fact", "Maria Lopez", "party", True, True,
           origin={"how": "told", "source": "Isabella Rodriguez", "when": "2023-02-13T10:00:00"}),
    _check("fact", "Klaus Mueller", "party", True, False),  # a claim no memory supports
    _check("fact", "Ayesha Khan", "party", False, False),
    _check("relationship", "Maria Lopez", "Klaus Mueller", True, True),
    _check("relationship", "Klaus Mueller", "Maria Lopez", True, True),
    _check("relationship", "Ayesha Khan", "Maria Lopez", True, True),  # one side only
    _check("relationship", "Maria Lopez", "Ayesha Khan", True, False),  # claimed, not supported
    _check("attendance", "Klaus Mueller", "gathering", True, False),  # not a claim of knowledge
]  # fmt: skip


def test_only_grounded_yes_answers_count_and_ungrounded_claims_are_hallucinations():
    assert awareness(CHECKS, NAMES, ["party"]) == {"party": 0.25}
    assert [(r["agent"], r["subject"]) for r in hallucinations(CHECKS)] == [
        ("Klaus Mueller", "party"),
        ("Maria Lopez", "Ayesha Khan"),
    ]


def test_the_papers_graph_needs_both_sides_and_the_directed_one_stands_beside_it():
    directed = knowing_graph(CHECKS, NAMES)
    assert set(directed.edges) == {("Maria Lopez", "Klaus Mueller"), ("Klaus Mueller", "Maria Lopez"),
                                   ("Ayesha Khan", "Maria Lopez")}  # fmt: skip
    mutual = mutual_graph(directed)
    assert {frozenset(edge) for edge in mutual.edges} == {frozenset({"Maria Lopez", "Klaus Mueller"})}
    assert density(mutual) == pytest.approx(1 / 6)  # 2 * 1 / (4 * 3)
    assert density(directed) == pytest.approx(3 / 12)


def test_the_cascade_entry_comes_from_the_grounding_memory_else_unaware():
    told, claimed = learned_from(CHECKS[0]), learned_from(CHECKS[1])
    assert told == Learned("Maria Lopez", "party", "told", "Isabella Rodriguez", datetime(2023, 2, 13, 10))
    assert claimed == Learned("Klaus Mueller", "party", "unaware")


def _entry(time, agent, kind, text, **details):
    return {"time": f"2023-02-{time}", "agent": agent, "kind": kind, "text": text, **details}


LOG = [
    _entry("13T00:00", name, "action", "sleeping", address="the Ville:home")
    for name in ("Isabella Rodriguez", "Maria Lopez", "Klaus Mueller", "Carlos Gomez", "Ayesha Khan")
] + [
    _entry("14T16:30", "Isabella Rodriguez", "action", "hosting the Valentine's Day party", address=CAFE),
    _entry("14T17:00", "Maria Lopez", "action", "going to the party", address=CAFE),
    _entry("14T17:20", "Klaus Mueller", "action", "having dinner", address=CAFE),
    _entry("14T18:30", "Klaus Mueller", "action", "reading", address="the Ville:Oak Hill College:library"),
    _entry("14T17:45", "Carlos Gomez", "action", "having dinner", address=CAFE),
    _entry("14T18:50", "Ayesha Khan", "action", "having a late coffee", address=CAFE),  # 10 minutes of 120
    _entry("13T17:00", "Klaus Mueller", "action", "having dinner", address=CAFE),  # the control window
    _entry("13T19:00", "Klaus Mueller", "action", "sleeping", address="the Ville:home"),
]
UNTIL = datetime(2023, 2, 15)


def test_presence_is_the_share_of_the_window_at_the_place():
    window = Window("gathering", GATHERING.start, GATHERING.end)
    shares = presence(LOG, GATHERING.place, window, UNTIL)
    assert shares == pytest.approx({"Isabella Rodriguez": 1.0, "Maria Lopez": 1.0, "Klaus Mueller": 70 / 120,
                                    "Carlos Gomez": 75 / 120, "Ayesha Khan": 10 / 120})  # fmt: skip
    assert shares["Ayesha Khan"] < ATTENDANCE_SHARE


def test_being_there_for_it_is_an_action_or_plan_that_names_it():
    named = names_it(GATHERING, PARTY)
    window = Window("gathering", GATHERING.start, GATHERING.end)
    assert there_for_it(LOG, "Maria Lopez", GATHERING.place, window, named)  # "the party": the name's last word
    assert not there_for_it(LOG, "Klaus Mueller", GATHERING.place, window, named)  # a diner
    plan = _entry("14T07:00", "Klaus Mueller", "plan", "status", day="2023-02-14",
                  blocks=[["sleeping", 420], ["going to Isabella's party", 120]])  # fmt: skip
    assert there_for_it([*LOG, plan], "Klaus Mueller", GATHERING.place, window, named)


def test_attendance_is_invitees_who_came_for_it_beside_everyone_present_and_a_control_window():
    cascade = [
        Learned("Maria Lopez", "party", "told", "Isabella Rodriguez", datetime(2023, 2, 13, 10)),
        Learned("Klaus Mueller", "party", "whispered", None, datetime(2023, 2, 14, 9)),
        Learned("Carlos Gomez", "party", "told", "Isabella Rodriguez", datetime(2023, 2, 14, 18)),  # too late
        Learned("Isabella Rodriguez", "party", "seeded", None, START),  # the host
        Learned("Ayesha Khan", "party", "saw", None, datetime(2023, 2, 14, 9)),
    ]
    invited = invitees(cascade, PARTY, GATHERING)
    assert invited == {"Maria Lopez", "Klaus Mueller"}
    asked = to_ask(LOG, GATHERING, PARTY, UNTIL, START)
    assert [(agent, window.label) for agent, window in asked] == [
        ("Carlos Gomez", "gathering"), ("Klaus Mueller", "gathering"), ("Klaus Mueller", "control")]  # fmt: skip
    said = [{"kind": "attendance", "agent": "Klaus Mueller", "subject": "control", "shows": False}]
    result = attendance(LOG, GATHERING, PARTY, invited, said, UNTIL, START)
    assert result.came == ("Maria Lopez",)  # Klaus dined there; his interview did not say he came for it
    assert result.present == ("Carlos Gomez", "Isabella Rodriguez", "Klaus Mueller", "Maria Lopez")
    assert result.control == "February 13, 5:00 pm to 7:00 pm"
    assert (result.control_came, result.control_present) == ((), ("Klaus Mueller",))
    assert result.text().startswith("1 of 2 invited came (4 present in all; control window February 13")
    rows = {(window, agent): (invited, share, why) for window, agent, invited, share, why in result.rows}
    assert rows[("gathering", "Maria Lopez")] == (True, 1.0, "its action or plan names it")
    assert rows[("gathering", "Klaus Mueller")] == (True, 0.583, "")
    assert rows[("gathering", "Carlos Gomez")] == (False, 0.625, "")
    came_says = attendance(LOG, GATHERING, PARTY, invited, [{**said[0], "subject": "gathering", "shows": True}],
                           UNTIL, START)  # fmt: skip
    assert came_says.came == ("Klaus Mueller", "Maria Lopez")  # his interview says he came for it


def test_a_gathering_nobody_was_told_of_has_no_invitee_who_came():
    nobody = [Learned(name, "party", "unaware") for name in ("Maria Lopez", "Klaus Mueller", "Carlos Gomez")]
    invited = invitees(nobody, PARTY, GATHERING)
    result = attendance(LOG, GATHERING, PARTY, invited, [], UNTIL, START)
    assert (result.invited, result.came) == ((), ())
    assert len(result.present) == 4  # people were there all the same


def test_windows_need_the_run_to_cover_them():
    assert windows(GATHERING, START, datetime(2023, 2, 14, 18)) == []  # not over yet
    (only,) = windows(GATHERING, datetime(2023, 2, 14), UNTIL)  # no day before, none after by then
    assert only.label == "gathering"
    later = windows(GATHERING, datetime(2023, 2, 14), datetime(2023, 2, 16))
    assert [w.start for w in later] == [GATHERING.start, datetime(2023, 2, 15, 17)]


def test_the_gathering_is_announced_by_the_fact_that_names_it():
    other = TrackedFact(id="other", description="Sam runs for mayor", keywords=[["mayor"]])
    assert gathering_fact(GATHERING, [other, PARTY]) is PARTY
    assert gathering_fact(None, [PARTY]) is None
