"""Interventions as data: checked in one line, applied at their simulated times, logged, reaching whom they name."""

from datetime import datetime

import pytest

from memory import NodeKind
from smallville.interventions.records import (
    Intervention,
    InterventionError,
    Timeline,
    load_interventions,
    parse_interventions,
)
from smallville.model import SmallvilleModel

PIANO = "the Ville:Hobbs Cafe:cafe:piano"
SHELF = "the Ville:Isabella Rodriguez's apartment:main room:shelf"


def at(hour: int, minute: int = 0) -> str:
    return f"2023-02-13T{hour:02d}:{minute:02d}"


BAD = {
    "unknown kind": ({"time": at(8), "kind": "rumour", "text": "x"}, "'kind'"),
    "whisper to nobody": ({"time": at(8), "kind": "whisper", "text": "x"}, "needs a target"),
    "object not an address": ({"time": at(8), "kind": "object", "target": "piano", "text": "x"}, "full address"),
    "broadcast with a target": (
        {"time": at(8), "kind": "broadcast", "target": "Klaus Mueller", "text": "x"},
        "leave its target out",
    ),
    "empty text": ({"time": at(8), "kind": "broadcast", "text": "  "}, "'text'"),
    "no time": ({"kind": "broadcast", "text": "x"}, "'time'"),
    "unknown field": ({"time": at(8), "kind": "broadcast", "text": "x", "who": "y"}, "'who'"),
}


@pytest.mark.parametrize("entry, expected", BAD.values(), ids=list(BAD))
def test_a_wrong_entry_is_one_line_naming_it_and_its_field(entry, expected):
    with pytest.raises(InterventionError) as caught:
        parse_interventions([{"time": at(7), "kind": "broadcast", "text": "fine"}, entry], "grid.toml")
    message = str(caught.value)
    assert message.startswith("grid.toml: intervention 2, field") and expected in message
    assert "\n" not in message


def test_a_toml_file_of_interventions_reads_as_its_tables(tmp_path):
    path = tmp_path / "plan.toml"
    path.write_text(
        '[[interventions]]\ntime = 2023-02-13T08:00:00\nkind = "whisper"\n'
        'target = ["Klaus Mueller", "Maria Lopez"]\ntext = "The library closes early on Friday"\n\n'
        '[[interventions]]\ntime = "2023-02-13T07:00"\nkind = "object"\n'
        f'target = "{PIANO}"\ntext = "out of tune"\n'
    )
    first, second = load_interventions(path)
    assert first.targets == ("Klaus Mueller", "Maria Lopez") and first.time == datetime(2023, 2, 13, 8)
    assert second.kind == "object" and second.text == "out of tune"
    timeline = Timeline([first, second])
    assert [item.kind for item in timeline.items] == ["object", "whisper"]  # in time order


def test_the_timeline_gives_what_is_due_and_keeps_its_place_through_its_state():
    items = [Intervention(time=at(8, minute), kind="broadcast", text=f"news {minute}") for minute in (0, 0, 30)]
    timeline = Timeline(items)
    assert [item.text for item in timeline.due(datetime(2023, 2, 13, 8, 10))] == ["news 0", "news 0"]
    timeline.applied = 2
    copy = Timeline()
    copy.set_state(timeline.get_state())
    assert copy.due(datetime(2023, 2, 13, 9)) == [items[2]] and copy.applied == 2
    with pytest.raises(ValueError, match="applied already"):
        copy.add(Intervention(time=at(7), kind="broadcast", text="too late"))


def test_a_town_applies_each_intervention_at_its_time_and_logs_it():
    model = SmallvilleModel(
        scenario_name="the_ville_n3",
        embedder="hashing",
        seconds_per_step=60,
        interventions=[
            {"time": at(0, 10), "kind": "whisper", "target": "Klaus Mueller", "text": "You are running for mayor"},
            {"time": at(0, 20), "kind": "object", "target": PIANO, "text": "out of tune"},
            {
                "time": at(
                    0,
                    20,
                ),
                "kind": "broadcast",
                "text": "The town hall is closed tomorrow",
            },
        ],
    )
    model.run_until(datetime(2023, 2, 13, 0, 15))
    logged = [(entry["time"], entry["intervention"]) for entry in model.event_log if entry["kind"] == "intervention"]
    assert logged == [("2023-02-13T00:10:00", "whisper")]
    klaus = model.by_name["Klaus Mueller"].memories.stream
    whispered = [node for node in klaus if node.description == "I am running for mayor"]  # in his own voice
    assert len(whispered) == 1 and whispered[0].kind == NodeKind.THOUGHT
    assert model.state.object_state(PIANO).description == "idle"
    model.run_until(datetime(2023, 2, 13, 0, 30))
    logged = [(entry["time"], entry["intervention"]) for entry in model.event_log if entry["kind"] == "intervention"]
    assert logged[1:] == [("2023-02-13T00:20:00", "object"), ("2023-02-13T00:20:00", "broadcast")]
    assert model.state.object_state(PIANO).description == "out of tune"
    for agent in model.people:  # everyone heard it, asleep or not: queued for a rating, or rated already
        texts = [memory.description for memory in agent.memories.pending] + [
            node.description for node in agent.memories.stream
        ]
        assert "The town hall is closed tomorrow" in texts
    assert model.timeline.applied == 3
    model.close()


WRONG_TARGETS = {
    "an agent not in the town": ({"kind": "whisper", "target": "Sam Moore"}, "no agent named 'Sam Moore'"),
    "a misspelt object": ({"kind": "object", "target": "the Ville:Hobbs Cafe:cafe:pianno"}, repr(PIANO)),
}


@pytest.mark.parametrize("entry, expected", WRONG_TARGETS.values(), ids=list(WRONG_TARGETS))
def test_a_target_the_town_lacks_is_refused_naming_the_nearest(entry, expected):
    with pytest.raises(InterventionError, match="intervention 1") as caught:
        SmallvilleModel(
            scenario_name="the_ville_n3",
            embedder="hashing",
            seed_memories=False,
            interventions=[{"time": at(8), "text": "x", **entry}],
        )
    assert expected in str(caught.value)
