"""A ground-truth town: a run folder whose every measure is known by construction, to validate the measures.

Seven agents of the Ville; who was told what, by whom and when, who saw what, who was whispered to, who knows whom
and who was where are written into their memories and the event log directly, as the town's own code writes them
(a talk leaves a chat memory and a takeaway on both sides, a whisper a "was told" thought, an action a log entry).
The scripted mind (agents/language/backends/scripted.py) answers the model calls: the whisper's importance, and the
interviews of the evaluation, truthfully and in its own words (`oracle`), so that what is measured is the
measures' code and the judge, never the offline mind's talk. `TRUTH` holds every figure the evaluation must find.
"""

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from agents import Gateway
from agents.language import ImportanceRequest, InterviewRequest, InterviewsRequest, ScriptedBackend, offline_answer
from memory import NodeKind
from smallville.model import SmallvilleModel
from smallville.runs.store import RunStore

START = datetime(2023, 2, 13)
END = datetime(2023, 2, 14, 20)
PARTY = "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm"
EXHIBITION = "Ayesha Khan is showing her photographs at the Oak Hill College library next week"
PEOPLE = {
    "Isabella Rodriguez": (72, 14),
    "Maria Lopez": (123, 57),
    "Klaus Mueller": (126, 46),
    "Ayesha Khan": (118, 61),
    "Wolfgang Schulz": (107, 62),
    "Tom Moreno": (73, 74),
    "Carmen Ortiz": (57, 74),
}
SCENARIO = {
    "name": "ground_truth_n7",
    "description": "A town whose measures are known by construction (smallville/evaluation/truth.py).",
    "map": "the_ville",
    "personas": "the_ville/base_the_ville_n25/personas",
    "whispers": "the_ville/agent_history_init_n25.csv",
    "start": START.isoformat(),
    "seconds_per_step": 10,
    "agents": [{"name": name, "tile": list(tile)} for name, tile in PEOPLE.items()],
    "facts": [
        {
            "id": "party",
            "description": PARTY,
            "sources": ["Isabella Rodriguez"],
            "keywords": [["valentine*"], ["party"]],
        },
        {
            "id": "exhibition",
            "description": EXHIBITION,
            "sources": ["Ayesha Khan"],
            "keywords": [["photo*"], ["exhibit*", "showing"]],
        },
    ],
    "gathering": {
        "name": "Valentine's Day party",
        "place": "the Ville:Hobbs Cafe",
        "start": "2023-02-14T17:00:00",
        "end": "2023-02-14T19:00:00",
    },
}


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2023, 2, day, hour, minute)


# Talks: (when, first, second, what the first says, the takeaway of the second). Both keep the talk.
TALKS = [
    (_at(13, 10), "Isabella Rodriguez", "Maria Lopez",
     "I'm throwing a Valentine's Day party at Hobbs Cafe tomorrow, February 14, from 5 to 7 pm. Please come!",
     "Isabella Rodriguez invited me to her Valentine's Day party at Hobbs Cafe on February 14, 5 to 7 pm"),
    (_at(13, 12), "Ayesha Khan", "Wolfgang Schulz",
     "My photographs will be shown at the Oak Hill College library next week, my first exhibition!",
     "Ayesha Khan is showing her photographs at the Oak Hill College library next week"),
    (_at(13, 15), "Maria Lopez", "Klaus Mueller",
     "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe tomorrow from 5 to 7 pm; come with me!",
     "Maria told me Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14, 5-7 pm"),
    (_at(14, 18, 30), "Isabella Rodriguez", "Tom Moreno",
     "Welcome, Tom! This is my Valentine's Day party; it goes on here at Hobbs Cafe until 7 pm.",
     "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe tonight until 7 pm"),
]  # fmt: skip
# Seeded memories (thoughts from the start): (who, what).
SEEDS = [
    ("Isabella Rodriguez", "I am hosting a Valentine's Day party at Hobbs Cafe on February 14 from 5 to 7 pm"),
    ("Ayesha Khan", "I am showing my photographs at the Oak Hill College library next week"),
    ("Wolfgang Schulz", "Klaus Mueller is my dormmate at Oak Hill College"),
    ("Carmen Ortiz", "Isabella Rodriguez owns Hobbs Cafe, where I buy my coffee"),
]
# Sightings (events): (when, who saw, what).
SIGHTINGS = [
    (_at(14, 16), "Wolfgang Schulz", "Isabella Rodriguez is decorating Hobbs Cafe for her Valentine's Day party"),
    (_at(13, 11), "Tom Moreno", "Ayesha Khan is reading a book"),
    (_at(13, 11), "Carmen Ortiz", "Klaus Mueller is having lunch"),
    # Klaus, told by Maria the day before, sees the party at dinner: more memories as relevant as the telling than the
    # judge is shown, all later; he still learned it from Maria (the cascade traces back before them).
    *(
        (
            _at(14, 17) + timedelta(minutes=5 + 5 * index),
            "Klaus Mueller",
            f"{PARTY} ({doing})",
        )
        for index, doing in enumerate(
            (
                "serving cake",
                "pouring drinks",
                "greeting guests",
                "playing music",
                "lighting candles",
                "taking photos",
                "handing out roses",
                "dancing",
                "telling a story",
                "clearing plates",
                "making a toast",
                "cutting the cake",
                "hanging hearts",
                "thanking guests",
            )
        )
    ),
]
WHISPERS = [(_at(14, 9), "Ayesha Khan", PARTY)]
# Actions: (who, from, to, what, where); the rest of the time each agent is at home.
CAFE = "the Ville:Hobbs Cafe:cafe"
ACTIONS = [
    ("Isabella Rodriguez", _at(14, 16, 30), _at(14, 19), "hosting the Valentine's Day party", CAFE),
    ("Maria Lopez", _at(14, 17), _at(14, 18, 30), "attending Isabella's party", CAFE),
    ("Klaus Mueller", _at(14, 17), _at(14, 19), "having dinner", CAFE),
    ("Wolfgang Schulz", _at(14, 17, 30), _at(14, 19), "going to the party at the cafe", CAFE),
    ("Tom Moreno", _at(14, 18), _at(14, 19), "having a coffee", CAFE),
    ("Ayesha Khan", _at(14, 17), _at(14, 19), "reading", "the Ville:Oak Hill College:library"),
    ("Klaus Mueller", _at(13, 17), _at(13, 19), "having dinner", CAFE),
    ("Maria Lopez", _at(13, 17), _at(13, 18), "studying", CAFE),
]  # fmt: skip
HOME = "the Ville:home"


@dataclass(frozen=True)
class Truth:
    """Every figure of the ground-truth town, known by construction."""

    awareness: dict[str, float]
    cascade: dict[tuple[str, str], tuple[str, str | None, datetime | None]]
    directed: frozenset[tuple[str, str]]
    mutual: frozenset[frozenset[str]]
    hallucinations: frozenset[tuple[str, str]]
    invited: frozenset[str]
    came: frozenset[str]
    present: frozenset[str]
    control_came: frozenset[str] = frozenset()
    control_present: frozenset[str] = field(default_factory=lambda: frozenset({"Klaus Mueller", "Maria Lopez"}))


_KNOWS = {
    ("Isabella Rodriguez", "Maria Lopez"), ("Maria Lopez", "Isabella Rodriguez"),
    ("Maria Lopez", "Klaus Mueller"), ("Klaus Mueller", "Maria Lopez"),
    ("Ayesha Khan", "Wolfgang Schulz"), ("Wolfgang Schulz", "Ayesha Khan"),
    ("Isabella Rodriguez", "Tom Moreno"), ("Tom Moreno", "Isabella Rodriguez"),
    ("Wolfgang Schulz", "Klaus Mueller"), ("Carmen Ortiz", "Isabella Rodriguez"),
}  # fmt: skip
# Claims without a memory behind them (the truth's hallucinations): (who, about what).
_CLAIMS = {("Carmen Ortiz", "party"), ("Tom Moreno", "Carmen Ortiz")}

TRUTH = Truth(
    awareness={"party": 6 / 7, "exhibition": 2 / 7},
    cascade={
        ("Isabella Rodriguez", "party"): ("seeded", None, START),
        ("Maria Lopez", "party"): ("told", "Isabella Rodriguez", _at(13, 10)),
        ("Klaus Mueller", "party"): ("told", "Maria Lopez", _at(13, 15)),
        ("Ayesha Khan", "party"): ("whispered", None, _at(14, 9)),
        ("Wolfgang Schulz", "party"): ("saw", None, _at(14, 16)),
        ("Tom Moreno", "party"): ("told", "Isabella Rodriguez", _at(14, 18, 30)),
        ("Carmen Ortiz", "party"): ("unaware", None, None),
        ("Ayesha Khan", "exhibition"): ("seeded", None, START),
        ("Wolfgang Schulz", "exhibition"): ("told", "Ayesha Khan", _at(13, 12)),
        **{
            (name, "exhibition"): ("unaware", None, None)
            for name in PEOPLE
            if name not in {"Ayesha Khan", "Wolfgang Schulz"}
        },
    },
    directed=frozenset(_KNOWS),
    mutual=frozenset(frozenset(pair) for pair in _KNOWS if tuple(reversed(pair)) in _KNOWS),
    hallucinations=frozenset(_CLAIMS),
    invited=frozenset({"Maria Lopez", "Klaus Mueller", "Ayesha Khan"}),
    came=frozenset({"Maria Lopez"}),
    present=frozenset({"Isabella Rodriguez", "Maria Lopez", "Klaus Mueller", "Wolfgang Schulz", "Tom Moreno"}),
)

# How the oracle words what an agent knows (never the fact's own sentence).
_TOLD_PARTY = "Yes! Isabella is throwing a Valentine's party at Hobbs Cafe on the 14th, from five to seven."
_TOLD_SHOW = "Ayesha told me her photographs will be exhibited at the college library next week."
_WHO = {
    ("Isabella Rodriguez", "Maria Lopez"): "Yes, Maria is a regular at my cafe; we talked about my party.",
    ("Maria Lopez", "Isabella Rodriguez"): "Yes, Isabella owns Hobbs Cafe; she invited me to her party.",
    ("Maria Lopez", "Klaus Mueller"): "Of course, Klaus and I talked about Isabella's party.",
    ("Klaus Mueller", "Maria Lopez"): "Yes, Maria is my friend; we talked yesterday afternoon.",
    ("Ayesha Khan", "Wolfgang Schulz"): "Yes, Wolfgang and I talked about my photographs.",
    ("Wolfgang Schulz", "Ayesha Khan"): "Yes, Ayesha is a photographer; we talked about her exhibition.",
    ("Isabella Rodriguez", "Tom Moreno"): "Yes, Tom came to my party and we talked.",
    ("Tom Moreno", "Isabella Rodriguez"): "Yes, Isabella is the owner of Hobbs Cafe; we talked at her party.",
    ("Wolfgang Schulz", "Klaus Mueller"): "Yes, Klaus is my dormmate.",
    ("Carmen Ortiz", "Isabella Rodriguez"): "Yes, Isabella owns Hobbs Cafe, where I buy my coffee.",
    ("Tom Moreno", "Carmen Ortiz"): "Yes, Carmen is my cousin.",
}
_SEEN = {("Tom Moreno", "Ayesha Khan"), ("Carmen Ortiz", "Klaus Mueller"), ("Wolfgang Schulz", "Isabella Rodriguez")}


def oracle(request) -> str:
    """The scripted mind's answer: the truth, in its own words, for interviews; 5 for every importance.

    The judge's requests (fact checks, groundings, rankings) are the offline judge's to answer: it is what is tested.
    """
    if isinstance(request, ImportanceRequest):
        return json.dumps({"scores": [5] * len(request.memories)})
    if isinstance(request, InterviewRequest):
        return json.dumps({"answer": _answer(request.identity.name, request.question)})
    if isinstance(request, InterviewsRequest):  # several questions at once: each answered as alone
        return json.dumps({"answers": [json.loads(oracle(item)) for item in request.items()]})
    return offline_answer(request, 0)


def _answer(name: str, question: str) -> str:  # noqa: PLR0911 - one answer per kind of question
    """What the agent truly knows, said in its own words."""
    if "Valentine" in question:
        if name == "Isabella Rodriguez":
            return "Of course, I'm hosting the party myself at Hobbs Cafe on the 14th, from 5 to 7 pm."
        knows = TRUTH.cascade[(name, "party")][0] != "unaware" or (name, "party") in _CLAIMS
        return _TOLD_PARTY if knows else "No, I haven't heard about any party."
    if question.startswith("Why were you at"):
        return "I was just having dinner there." if name == "Klaus Mueller" else "I was there for a while."
    if question.startswith("Do you know "):
        other = question.removeprefix("Do you know ").split("?")[0]
        if (name, other) in _WHO:
            return _WHO[(name, other)]
        if (name, other) in _SEEN:
            return f"I've seen {other} around, but I don't really know them."
        return f"No, I don't know {other}."
    if "photograph" in question or "exhibit" in question:
        if name == "Ayesha Khan":
            return "Yes: my photographs go up at the Oak Hill College library next week!"
        return _TOLD_SHOW if TRUTH.cascade[(name, "exhibition")][0] != "unaware" else "I haven't heard anything."
    return "I'd rather not say."


def scripted_backends() -> dict:
    """The backends an evaluation of the ground-truth town answers with: the scripted mind for every model call."""
    return {"offline": ScriptedBackend(oracle)}


# A gathering nobody was told of, at the party's place the day before it (a control that can fail): the party's fact
# names the place, so those told of the party by then (Maria, Klaus) are its invitees; both are there, dining and
# studying, and neither came for it. A measure that counted invitees present as "came" would say 2 of 2.
UNTOLD_GATHERING = {
    "name": "photo club meeting",
    "place": "the Ville:Hobbs Cafe",
    "start": "2023-02-13T17:00:00",
    "end": "2023-02-13T19:00:00",
}
UNTOLD = {"invited": 2, "came": 0, "present": 2}


def build_truth_town(
    folder: Path, *, facts: tuple[str, ...] = ("party", "exhibition"), gathering: dict | None = None
) -> Path:
    """Write the ground-truth town's run folder (and its scenario, beside it); returns the folder.

    `facts` are the tracked facts' ids; without "party", no fact announces the gathering: nobody is its invitee.
    `gathering` replaces the party as the gathering measured (UNTOLD_GATHERING: one nobody was told of).
    """
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    scenario = folder.parent / f"{folder.name}-scenario.json"
    tracked = [fact for fact in SCENARIO["facts"] if fact["id"] in facts]
    scenario.write_text(json.dumps({**SCENARIO, "facts": tracked, "gathering": gathering or SCENARIO["gathering"]}))
    config = {"scenario_name": str(scenario), "llm": "offline", "embedder": "hashing"}
    model = SmallvilleModel(seed_memories=False, **config)
    try:
        model.gateway = Gateway(model.gateway.config, backends=scripted_backends())
        _write_memories(model)
        _write_log(model)
        model.step_count = int((END - START).total_seconds()) // model.seconds_per_step
        model.collect()
        store = RunStore.create(folder, {**config, "end": END.isoformat(), "checkpoint_minutes": 60})
        try:
            store.checkpoint(model)
        finally:
            store.close()
    finally:
        model.close()
    return folder


def _write_memories(model) -> None:
    """Seeds, talks, sightings and whispers, in the order they happened."""
    steps = []
    for name, text in SEEDS:
        steps.append((START, "seed", name, text))
    for when, first, second, line, takeaway in TALKS:
        steps.append((when, "talk", (first, second), (line, takeaway)))
    for when, name, text in SIGHTINGS:
        steps.append((when, "saw", name, text))
    for when, name, text in WHISPERS:
        steps.append((when, "whisper", name, text))
    for when, kind, who, what in sorted(steps, key=lambda step: step[0]):
        model.step_count = int((when - START).total_seconds()) // model.seconds_per_step
        if kind == "whisper":
            model.whisper(who, what)
        elif kind == "talk":
            model.run_async(_talk(model, when, *who, *what))
        else:
            node_kind = NodeKind.THOUGHT if kind == "seed" else NodeKind.EVENT
            memory = model.by_name[who].memories
            model.run_async(memory.add(node_kind, what, created=when, importance=5, subject=who))


async def _talk(model, when: datetime, first: str, second: str, line: str, takeaway: str) -> None:
    """A talk as the town keeps it: a chat memory on both sides, the listener's takeaway, the lines in the log."""
    lines = ((first, line), (second, "How nice, thank you for telling me!"))
    for me, partner in ((first, second), (second, first)):
        memory = model.by_name[me].memories
        summary = f"conversation with {partner}: {line}"
        await memory.add(NodeKind.CHAT, summary, created=when, importance=5, subject=me, predicate="chat with",
                         object=partner, partner=partner, lines=lines)  # fmt: skip
    listener = model.by_name[second].memories
    await listener.add(NodeKind.THOUGHT, takeaway, created=when, importance=5, subject=second,
                       predicate="learned from", object=first)  # fmt: skip
    for offset, (speaker, text) in enumerate(lines):
        partner = second if speaker == first else first
        time = (when - timedelta(seconds=10 * (len(lines) - offset))).isoformat()
        model.event_log.append({"time": time, "agent": speaker, "kind": "line", "text": text, "partner": partner})


def _write_log(model) -> None:
    """The actions: at home from the start, at the places of ACTIONS in their hours, home after each."""
    entries = [{"time": START.isoformat(), "agent": name, "kind": "action", "text": "at home", "address": HOME}
               for name in PEOPLE]  # fmt: skip
    for name, begin, end, text, address in ACTIONS:
        entries.append({"time": begin.isoformat(), "agent": name, "kind": "action", "text": text, "address": address})
        entries.append({"time": end.isoformat(), "agent": name, "kind": "action", "text": "at home", "address": HOME})
    model.event_log.extend(entries)
    model.event_log.sort(key=lambda entry: entry["time"])


def mismatches(evaluation: Path) -> list[str]:
    """Every way an evaluation of the ground-truth town differs from the truth (empty: every measure is exact)."""
    measures = json.loads((evaluation / "measures.json").read_text())
    checks = [json.loads(line) for line in (evaluation / "checks.jsonl").read_text().splitlines() if line.strip()]
    wrong = []
    for fact, share in TRUTH.awareness.items():
        if abs(measures["awareness"][fact] - share) > 1e-9:
            wrong.append(f"awareness of {fact}: {measures['awareness'][fact]:.3f}, truth {share:.3f}")
    grounded = {(r["agent"], r["subject"]) for r in checks if r["kind"] == "relationship" and r["grounded"]}
    if grounded != TRUTH.directed:
        wrong.append(
            f"who knows whom: extra {sorted(grounded - TRUTH.directed)}, missing {sorted(TRUTH.directed - grounded)}"
        )
    count = len(PEOPLE)
    density = 2 * len(TRUTH.mutual) / (count * (count - 1))
    if abs(measures["relationship_density"] - density) > 1e-9:
        wrong.append(f"mutual density {measures['relationship_density']:.3f}, truth {density:.3f}")
    made_up = {
        (r["agent"], r["subject"]) for r in checks if r["kind"] != "attendance" and r["shows"] and not r["grounded"]
    }
    if made_up != TRUTH.hallucinations:
        wrong.append(f"hallucinations {sorted(made_up)}, truth {sorted(TRUTH.hallucinations)}")
    for line in (evaluation / "cascade.csv").read_text().splitlines()[1:]:
        fact, agent, how, source, when = line.split(",")
        expected = TRUTH.cascade[(agent, fact)]
        found = (how, source or None, datetime.fromisoformat(when) if when else None)
        if found != expected:
            wrong.append(f"cascade of {fact} for {agent}: {found}, truth {expected}")
    present = measures["attendance"]
    expected = {"invited": len(TRUTH.invited), "came": len(TRUTH.came), "present": len(TRUTH.present),
                "control_came": len(TRUTH.control_came), "control_present": len(TRUTH.control_present)}  # fmt: skip
    for key, value in expected.items():
        if present.get(key) != value:
            wrong.append(f"attendance {key}: {present.get(key)}, truth {value}")
    return wrong
