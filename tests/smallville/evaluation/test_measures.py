"""Claims checked against memory, attendance of invitees, and how each agent learned a fact, on hand-made data."""

from datetime import datetime

from memory import HashingEmbedder, MemoryStream, NodeKind
from smallville.evaluation import attendance, cascade
from smallville.evaluation.measures import acquaintance_grounded, fact_grounded, gathering_fact
from smallville.evaluation.results import end_to_end
from smallville.scenario import Gathering, TrackedFact

PEOPLE = ["Ayesha Khan", "Carlos Gomez", "Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
PARTY = TrackedFact(
    id="party", description="Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe",
    sources=["Isabella Rodriguez"], keywords=[["valentine*"], ["party"]],
)  # fmt: skip
GATHERING = Gathering(
    name="Valentine's Day party", place="the Ville:Hobbs Cafe",
    start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19),
)  # fmt: skip


def _nodes(*items):
    stream = MemoryStream(dim=16)
    embed = HashingEmbedder(dim=16)
    for kind, text, partner in items:
        stream.add(kind, text, created=datetime(2023, 2, 13, 9), importance=5, embedding=embed.embed([text])[0],
                   partner=partner)  # fmt: skip
    return list(stream)


def test_a_claim_backed_by_memory_is_grounded_and_one_without_is_a_hallucination():
    told = _nodes(
        (NodeKind.CHAT, "conversation with Isabella Rodriguez: her Valentine's Day party", "Isabella Rodriguez")
    )
    unrelated = _nodes((NodeKind.EVENT, "the cafe counter is idle", None))
    interviewed = _nodes((NodeKind.CHAT, "an interviewer asked about a valentine party", "interviewer"))
    assert fact_grounded("Maria Lopez", PARTY, told)
    assert not fact_grounded("Maria Lopez", PARTY, unrelated)
    assert not fact_grounded("Maria Lopez", PARTY, interviewed)  # an interview never grounds itself
    assert fact_grounded("Isabella Rodriguez", PARTY, unrelated)  # the source knows
    assert acquaintance_grounded("Isabella Rodriguez", told, PEOPLE)
    assert not acquaintance_grounded("Klaus Mueller", told, PEOPLE)


def test_only_grounded_yes_answers_count_and_the_rest_are_listed():
    checks = [
        {"kind": "fact", "subject": "party", "agent": "Maria Lopez", "shows": True, "grounded": True},
        {"kind": "fact", "subject": "party", "agent": "Klaus Mueller", "shows": True, "grounded": False},
        {"kind": "relationship", "subject": "Klaus Mueller", "agent": "Maria Lopez", "shows": True, "grounded": True},
        {"kind": "relationship", "subject": "Maria Lopez", "agent": "Klaus Mueller", "shows": False,
         "grounded": False},
    ]  # fmt: skip
    awareness, density, hallucinated, checked = end_to_end(checks, ["Maria Lopez", "Klaus Mueller"], ["party"])
    assert awareness == {"party": 0.5}
    assert density == 1.0
    assert [(r["agent"], r["subject"]) for r in hallucinated] == [("Klaus Mueller", "party")]
    assert checked == 4


def _entry(time, agent, kind, text, **details):
    return {"time": f"2023-02-{time}", "agent": agent, "kind": kind, "text": text, **details}


LOG = [
    _entry(
        "13T10:00", "Isabella Rodriguez", "line", "Come to my Valentine's Day party tomorrow!", partner="Maria Lopez"
    ),
    _entry("13T11:00", "Maria Lopez", "line", "Isabella is throwing a Valentine's party", partner="Klaus Mueller"),
    _entry("14T18:00", "Isabella Rodriguez", "line", "Welcome to the Valentine's party!", partner="Carlos Gomez"),
    _entry("13T12:00", "Ayesha Khan", "line", "Lovely weather today", partner="Carlos Gomez"),
    _entry("14T16:50", "Isabella Rodriguez", "action", "hosting the party", address="the Ville:Hobbs Cafe:cafe"),
    _entry("14T16:30", "Maria Lopez", "action", "going to the party", address="the Ville:Hobbs Cafe:cafe"),
    _entry("14T17:30", "Klaus Mueller", "action", "reading", address="the Ville:Oak Hill College:library"),
    _entry("14T17:45", "Carlos Gomez", "action", "having dinner", address="the Ville:Hobbs Cafe:cafe"),
    _entry("14T19:00", "Ayesha Khan", "action", "having a late coffee", address="the Ville:Hobbs Cafe:cafe"),
]


def test_attendance_counts_invitees_who_came_beside_everyone_present():
    result = attendance(LOG, GATHERING, gathering_fact(GATHERING, [PARTY]), datetime(2023, 2, 15))
    assert result.invited == ("Klaus Mueller", "Maria Lopez")  # told before it began; the host is not invited
    assert result.came == ("Maria Lopez",)
    assert result.present == ("Carlos Gomez", "Isabella Rodriguez", "Maria Lopez")  # a diner counts as present only
    assert result.text() == "1 of 2 invited came (3 present in all)"
    assert result.as_dict() == {"invited": 2, "came": 1, "present": 3}


def test_cascade_says_seeded_told_by_whom_and_when_saw_or_unaware():
    saw = _nodes((NodeKind.EVENT, "Isabella Rodriguez is decorating for the Valentine's Day party", None))
    learned = cascade(PARTY, PEOPLE, LOG, {"Ayesha Khan": saw}, datetime(2023, 2, 14, 12))
    how = {item.agent: (item.how, item.source) for item in learned}
    assert how == {
        "Isabella Rodriguez": ("seeded", None),
        "Maria Lopez": ("told", "Isabella Rodriguez"),
        "Klaus Mueller": ("told", "Maria Lopez"),
        "Ayesha Khan": ("saw", None),
        "Carlos Gomez": ("unaware", None),  # told only after the evaluated time
    }
    assert next(item.when for item in learned if item.agent == "Klaus Mueller") == datetime(2023, 2, 13, 11)
