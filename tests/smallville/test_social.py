from dataclasses import dataclass, field
from datetime import datetime

import pytest

from smallville.scenarios.scenario import load_scenario
from smallville.social import SocialTracker, town_names

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
