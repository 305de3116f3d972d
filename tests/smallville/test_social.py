import difflib
import random
from dataclasses import dataclass, field
from datetime import datetime

import pytest

from smallville.scenarios.scenario import load_scenario
from smallville.social import FIRST_NAME_CUTOFF, LAST_NAME_CUTOFF, SocialTracker, _closest_person, town_names

PEOPLE = load_scenario("the_ville_n25").agent_names
T0 = datetime(2023, 2, 13, 8, 0)


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("Abigail Chan", "Abigail Chen"),
        ("Haily Johnson", "Hailey Johnson"),
        ("Maria Lopez", "Maria Lopez"),
        ("Jane Moore", None),
        ("Hobbs Cafe", None),
    ],
    ids=["chan-is-chen", "haily-is-hailey", "exact", "moore-is-not-moreno", "a-place"],
)
def test_misspelled_names_match_the_right_persona(text, person):
    assert town_names(tuple(PEOPLE)).match(text) == person


def _closest_person_by_person(text, people):
    """The closest persona, each person's first and last names compared anew (before the scores were kept)."""
    first, _, last = text.partition(" ")
    scored = []  # (score, person) of each person both of whose names pass their cutoffs, in the people's order
    for person in people:
        person_first, _, person_last = person.partition(" ")
        first_matcher = difflib.SequenceMatcher(None, first, person_first)
        last_matcher = difflib.SequenceMatcher(None, last, person_last)
        if first_matcher.quick_ratio() < FIRST_NAME_CUTOFF or last_matcher.quick_ratio() < LAST_NAME_CUTOFF:
            continue
        if first_matcher.ratio() >= FIRST_NAME_CUTOFF and last_matcher.ratio() >= LAST_NAME_CUTOFF:
            scored.append((first_matcher.ratio() + last_matcher.ratio(), person))
    return max(scored, key=lambda pair: pair[0], default=(0.0, None))[1]  # the first of the best, as the town's


def test_a_name_finds_the_person_it_found_comparing_every_person_anew():
    rng = random.Random(0)
    firsts = [*sorted({name.split()[0] for name in PEOPLE}), "Abigail", "Abigale", "Maria", "Mario"]
    lasts = [*sorted({name.split()[1] for name in PEOPLE}), "Chen", "Chan", "Moore", "Moreno"]
    people = [f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(200)]  # shared first and last names, ties

    def misspelled(word):
        spot = rng.randrange(len(word))
        return word[:spot] + rng.choice("aeiouyln") + word[spot + rng.randint(0, 1) :]

    texts = [f"{misspelled(p.split()[0])} {misspelled(p.split()[1])}" for p in rng.sample(people, 80)]
    texts += ["Hobbs Cafe", "Maple Cafe", "Abigail Chan", "Jane Moore", "Mari Lopez"]
    found = [_closest_person(text, people) for text in texts]
    assert found == [_closest_person_by_person(text, people) for text in texts]
    assert sum(person is not None for person in found) > 50  # most misspellings still name someone


@dataclass(frozen=True)
class Node:
    description: str
    created: datetime
    partner: str | None = None
    object: str = ""


@dataclass
class Stream:
    nodes: list = field(default_factory=list)

    def __len__(self):
        return len(self.nodes)

    def node(self, node_id):
        return self.nodes[node_id]


@dataclass
class Memories:
    stream: Stream


@dataclass
class Person:
    name: str
    memories: Memories = field(default_factory=lambda: Memories(Stream()))


def test_a_fact_told_a_to_b_to_c_gives_the_cascade_with_times():
    names = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
    town = load_scenario("the_ville_n3")
    tracker = SocialTracker(names, town.facts, None)
    tracker.start(T0)
    isabella, maria, klaus = (Person(name) for name in names)
    tracker.update([isabella, maria, klaus], T0)
    assert [to for _, to, _ in tracker.cascade("party")] == ["Isabella Rodriguez"]

    told_maria = datetime(2023, 2, 13, 9, 0)
    maria.memories.stream.nodes.append(
        Node("Isabella Rodriguez said she is hosting a Valentine's Day party", told_maria, object="Isabella Rodriguez")
    )
    told_klaus = datetime(2023, 2, 13, 11, 30)
    klaus.memories.stream.nodes.append(
        Node("conversation with Maria Lopez: a Valentine's Day party at Hobbs Cafe", told_klaus, partner="Maria Lopez")
    )
    tracker.update([isabella, maria, klaus], told_klaus)
    assert tracker.cascade("party") == [
        (None, "Isabella Rodriguez", T0),
        ("Isabella Rodriguez", "Maria Lopez", told_maria),
        ("Maria Lopez", "Klaus Mueller", told_klaus),
    ]
    assert tracker.aware_share("party") == 1.0
    assert tracker.aware_share("candidacy") == 0.0
    # Talking (a chat's partner) and naming someone both make a tie.
    assert tracker.graph.has_edge("Maria Lopez", "Isabella Rodriguez")
    assert tracker.graph.has_edge("Klaus Mueller", "Maria Lopez")
    assert tracker.density() == 2 / 3


def test_state_round_trip():
    names = ["Isabella Rodriguez", "Maria Lopez"]
    tracker = SocialTracker(names, load_scenario("the_ville_n3").facts, None)
    tracker.start(T0)
    maria = Person("Maria Lopez")
    maria.memories.stream.nodes.append(Node("Isabella Rodriguez's Valentine's Day party", T0))
    tracker.update([Person("Isabella Rodriguez"), maria], T0)
    copy = SocialTracker(names, load_scenario("the_ville_n3").facts, None)
    copy.set_state(tracker.get_state())
    assert copy.get_state() == tracker.get_state()
    assert copy.cascade("party") == tracker.cascade("party")
