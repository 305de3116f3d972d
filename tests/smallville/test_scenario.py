import json

import pytest

from smallville.scenarios.scenario import ScenarioError, available_scenarios, load_scenario


def test_shipped_scenarios_load():
    assert {"the_ville_n25", "the_ville_n3"} <= set(available_scenarios())
    town = load_scenario("the_ville_n25")
    assert len(town.agents) == 25
    assert town.agent_names[0] == "Latoya Williams"  # the original's persona order, the order decisions apply in
    assert load_scenario("the_ville_n3").agent_names == ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]


@pytest.mark.parametrize(
    ("agents", "expected"),
    [(None, 25), (3, 3), (["Klaus Mueller", "Isabella Rodriguez"], 2)],
    ids=["all", "first-n", "names"],
)
def test_select_agents(agents, expected):
    assert len(load_scenario("the_ville_n25").select(agents).agents) == expected


def test_select_names_keeps_scenario_order():
    chosen = load_scenario("the_ville_n25").select(["Klaus Mueller", "Isabella Rodriguez"])
    assert chosen.agent_names == ["Isabella Rodriguez", "Klaus Mueller"]


@pytest.mark.parametrize(
    ("agents", "message"),
    [(0, "asked for 0 agents; it has 1 to 25"), (["Klaus Muller"], "no agent named 'Klaus Muller'")],
    ids=["zero", "misspelled-name"],
)
def test_bad_agent_selection_names_the_problem(agents, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario("the_ville_n25").select(agents)


def _write(tmp_path, **changes):
    data = json.loads(load_scenario("the_ville_n3").model_dump_json())
    data.update(changes)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"start": "yesterday"}, "field 'start'"),
        ({"agents": []}, "field 'agents'"),
        ({"agents": [{"name": "Klaus Mueller", "tile": [1]}]}, r"field 'agents.0.tile"),
        ({"colour": "blue"}, "field 'colour'"),
    ],
    ids=["bad-time", "no-agents", "bad-tile", "unknown-field"],
)
def test_a_mistake_names_the_file_and_field(tmp_path, changes, message):
    path = _write(tmp_path, **changes)
    with pytest.raises(ScenarioError, match=message) as error:
        load_scenario(path)
    assert str(path) in str(error.value)


def test_missing_scenario_lists_the_available_ones():
    with pytest.raises(ScenarioError, match=r"choose one of: .*the_ville_n25"):
        load_scenario("the_ville_n99")


@pytest.mark.parametrize(
    ("fact", "text", "knows"),
    [
        ("party", "Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe", True),
        ("party", "I love Valentine's Day", False),
        ("candidacy", "Sam Moore said: I am running in the upcoming local mayor election", True),
        ("candidacy", "the same mayor runs again", False),
        ("candidacy", "Sam is thinking about his candidacy for mayor", True),
    ],
    ids=["party-yes", "party-no-party", "candidacy-yes", "same-is-not-sam", "candida-prefix"],
)
def test_the_rule_for_knowing_a_fact(fact, text, knows):
    facts = {tracked.id: tracked for tracked in load_scenario("the_ville_n25").facts}
    assert facts[fact].matches(text) is knows
