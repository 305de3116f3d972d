"""A town of n agents (`--agents n`): the news's sources, then one person from each home, so there is news to
spread and people who do not all live together."""

from smallville.scenarios.scenario import load_scenario
from smallville.scenarios.small_town import homes, mixed_order

N25 = load_scenario("the_ville_n25")


def test_the_sources_come_first_then_one_person_from_each_home():
    order = mixed_order(N25)
    assert sorted(order) == sorted(N25.agent_names)
    assert order[:2] == ["Isabella Rodriguez", "Sam Moore"]  # the party's and the candidacy's sources
    where = homes(N25)
    rest = order[2:]
    first_round = rest[: len(set(where[name] for name in rest))]
    assert len({where[name] for name in first_round}) == len(first_round)  # no home twice before every home once


def test_five_agents_are_not_five_housemates():
    five = N25.select(5)
    where = homes(N25)
    assert len(five.agent_names) == 5 and len({where[name] for name in five.agent_names}) == 5
    assert five.agent_names == [name for name in N25.agent_names if name in five.agent_names]  # scenario order
    assert set(five.agent_names) >= {"Isabella Rodriguez", "Sam Moore"}
    assert N25.select(25).agent_names == N25.agent_names
