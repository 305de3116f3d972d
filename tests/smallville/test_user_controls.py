"""The paper's user controls on a town: an object's state rewritten (and an agent reacting to it), an interview as a
persona, from the model and the command line."""

import json
from datetime import datetime

import pytest

from agents.language.backends.scripted import ScriptedBackend
from agents.language.offline import offline_answer
from memory import MemoryStore, NodeKind
from smallville.cli import main
from smallville.commands.loading import load_run
from smallville.model import SmallvilleModel
from smallville.runs.folder import read_events
from tests.smallville.run_folders import simulate_three

STOVE = "the Ville:Hobbs Cafe:cafe:cooking area"
SHELF = "the Ville:Isabella Rodriguez's apartment:main room:shelf"
ISABELLA = "Isabella Rodriguez"


def scripted_town(interventions: list[dict], answers: dict, agents=None) -> tuple[SmallvilleModel, list]:
    """The 3-agent town whose mind is the offline one except for the request kinds in `answers` (seen in `asked`).

    The stove's tests keep Isabella alone at the cafe: Klaus and Maria, whose own words take them to Hobbs Cafe to
    eat, sit nearer her than the stove, and an agent attends to the 8 nearest events only (the original's rule).
    """
    model = SmallvilleModel(
        scenario_name="the_ville_n3", embedder="hashing", interventions=interventions, agents=agents
    )
    asked = []

    def answer(request) -> str:
        inner = getattr(request, "inner", request)  # a request carrying importance ratings on the side
        text = offline_answer(request, model.seed)
        if inner.kind not in answers:
            return text
        asked.append(inner)
        return json.dumps({**json.loads(text), **answers[inner.kind](inner)})

    model.gateway._backends["offline"] = ScriptedBackend(answer)
    return model, asked


def actions_of(model, name: str, since: str) -> list[tuple[str, str]]:
    return [(e["text"], e["address"]) for e in model.event_log if e["agent"] == name and e["kind"] == "action"
            and e["time"] >= since]  # fmt: skip


def stove_burning_at_half_past_eight(reaction: dict) -> tuple[SmallvilleModel, list]:
    """Isabella's town with her cafe's stove set burning at 08:30, where seeing it she gets `reaction`."""
    burning = [{"time": "2023-02-13T08:30", "kind": "object", "target": STOVE, "text": "burning"}]
    return scripted_town(burning, {"object_reaction": lambda request: reaction}, agents=[ISABELLA])


@pytest.mark.slow  # runs the town
def test_the_agent_who_sees_a_burning_stove_goes_to_it_and_the_stove_is_left_idle():
    reaction = {"react": True, "reason": "fire!", "activity": "turning off the stove", "minutes": 10}
    model, asked = stove_burning_at_half_past_eight(reaction)
    model.run_until(datetime(2023, 2, 13, 8, 30))
    assert model.state.object_state(STOVE).description == "idle"
    model.run_until(datetime(2023, 2, 13, 9, 15))
    (request,) = asked
    assert (request.identity.name, request.object_address, request.state) == (ISABELLA, STOVE, "burning")
    reactions = [e for e in model.event_log if e["kind"] == "reaction"]
    assert [(e["agent"], e["text"], e["object"]) for e in reactions] == [(ISABELLA, "turning off the stove", STOVE)]
    assert ("turning off the stove", STOVE) in actions_of(model, ISABELLA, "2023-02-13T08:30")
    assert model.state.object_state(STOVE).description == "idle"  # used, then left: the world's own rule
    seen = [node.description for node in model.by_name[ISABELLA].memories.stream if node.kind == NodeKind.EVENT]
    assert "the cooking area is burning" in seen
    model.close()


@pytest.mark.slow  # runs the town
def test_an_agent_told_to_carry_on_does_not_go_and_the_stove_stays_as_set():
    carry_on = {"react": False, "reason": "not now", "activity": "", "minutes": 5}
    model, asked = stove_burning_at_half_past_eight(carry_on)
    model.run_until(datetime(2023, 2, 13, 9, 15))
    assert len(asked) == 1  # asked once, then the cool-down: not at every step
    assert not [e for e in model.event_log if e["kind"] == "reaction"]
    assert model.state.object_state(STOVE).description == "burning"
    model.close()


def _shelf_on_fire_from(moment: str) -> SmallvilleModel:
    """The small town, offline, run to 07:30 with Isabella's shelf set on fire at `moment`."""
    shelf = [{"time": moment, "kind": "object", "target": SHELF, "text": "on fire"}]
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", interventions=shelf)
    model.run_until(datetime(2023, 2, 13, 7, 30))
    return model


@pytest.mark.slow  # runs the town
def test_offline_an_agent_sees_to_an_object_in_its_home_in_the_event_log():
    model = _shelf_on_fire_from("2023-02-13T06:45")
    reactions = [(e["agent"], e["text"]) for e in model.event_log if e["kind"] == "reaction"]
    assert reactions == [(ISABELLA, "seeing to the shelf, which is on fire")]
    assert ("seeing to the shelf, which is on fire", SHELF) in actions_of(model, ISABELLA, "2023-02-13T06:45")
    assert model.state.object_state(SHELF).description == "idle"
    model.close()


@pytest.mark.slow  # runs the town
def test_an_object_first_seen_asleep_is_seen_to_once_awake():
    """Set while Isabella sleeps beside it: what she saw then is no news in the morning, yet it is still on fire."""
    model = _shelf_on_fire_from("2023-02-13T00:00")
    reactions = [(e["time"], e["agent"], e["text"]) for e in model.event_log if e["kind"] == "reaction"]
    assert [(agent, text) for _, agent, text in reactions] == [(ISABELLA, "seeing to the shelf, which is on fire")]
    assert reactions[0][0] >= "2023-02-13T06:00"  # awake
    assert model.state.object_state(SHELF).description == "idle"
    model.close()


@pytest.mark.slow  # runs the town
def test_an_object_seen_while_the_agent_considers_no_one_is_decided_on_once_it_is_free():
    """At 08:29:50 Isabella has just decided on something else (a pause of 15 minutes): the stove waits for her."""
    burning = [{"time": "2023-02-13T08:29:50", "kind": "object", "target": STOVE, "text": "burning"}]
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", interventions=burning)
    model.run_until(datetime(2023, 2, 13, 8, 29, 50))
    clock = model.by_name[ISABELLA].social
    assert clock.paused(model.now)
    free_at = clock.paused_until.isoformat()
    model.run_until(datetime(2023, 2, 13, 8, 50))
    (reaction,) = [e for e in model.event_log if e["kind"] == "reaction"]
    assert reaction["agent"] == ISABELLA and reaction["time"] >= free_at
    assert ("seeing to the cooking area, which is burning", STOVE) in actions_of(model, ISABELLA, "2023-02-13T08:30")
    assert model.state.object_state(STOVE).description == "idle"
    model.close()


def test_an_interview_as_a_persona_is_asked_and_answered_to_that_persona():
    reporter = "a news reporter from the Ville Gazette"
    answer = {"answer": "Hello! For the Gazette? I am opening the cafe at eight."}
    model, asked = scripted_town([], {"interview": lambda request: answer})
    said = model.interview(ISABELLA, "What are you doing today?", remember=True, asker=reporter)
    assert said == answer["answer"]
    (request,) = asked
    prompt = request.messages()[1]["content"]
    assert f'introduces themselves as "{reporter}" asks {ISABELLA}' in prompt
    chat = [node for node in model.by_name[ISABELLA].memories.stream if node.kind == NodeKind.CHAT][-1]
    assert chat.description == f"{reporter} asked {ISABELLA}: What are you doing today?"
    assert chat.lines == ((reporter, "What are you doing today?"), (ISABELLA, answer["answer"]))
    model.close()


@pytest.fixture(scope="module")
def night_run(tmp_path_factory):
    return simulate_three(tmp_path_factory.mktemp("controls") / "run", "2023-02-13T06:30")


@pytest.mark.slow  # on a simulated run folder
def test_interview_as_a_persona_from_the_command_line_is_remembered_as_that_person(night_run, capsys):
    persona = "a news reporter from the Ville Gazette"
    argv = ["interview", str(night_run), ISABELLA, "Who are you?", "--as", persona, "--remember"]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith(f"{ISABELLA}: ")
    with MemoryStore(night_run / "memory.sqlite") as store:
        chats = [node for node in store.load(ISABELLA) if node.kind == NodeKind.CHAT]
    assert chats[-1].description == f"{persona} asked {ISABELLA}: Who are you?"


@pytest.mark.slow  # on a simulated run folder
def test_set_names_the_nearest_objects_for_a_wrong_address_and_refuses_the_past(night_run, capsys):
    assert main(["set", str(night_run), "the Ville:Hobbs Cafe:cafe:cookin area", "burning"]) == 1
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and f"the nearest: {STOVE!r}" in error
    assert main(["set", str(night_run), STOVE, "burning", "--at", "2023-02-13T06:00"]) == 1
    assert "change the past in a fork instead" in capsys.readouterr().err


@pytest.mark.slow  # on a simulated run folder
def test_set_for_later_is_applied_when_the_resumed_run_gets_there(night_run, capsys):
    assert main(["set", str(night_run), SHELF, "on fire", "--at", "2023-02-13T06:45"]) == 0
    assert "queued: 2023-02-13 06:45" in capsys.readouterr().out
    assert main(["resume", str(night_run), "--until", "2023-02-13T07:30"]) == 0
    events = read_events(night_run / "events.sqlite")
    applied = [(e["time"], e["text"]) for e in events if e["kind"] == "intervention"]
    assert applied == [("2023-02-13T06:45:00", "the shelf is on fire")]
    assert [e["agent"] for e in events if e["kind"] == "reaction"] == [ISABELLA]


@pytest.mark.slow  # a simulated run first
def test_interview_checks_its_model_with_the_server_given_beside_it(night_run, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["interview", str(night_run), ISABELLA, "hi", "--llm", "gpt4"]) == 1
    assert capsys.readouterr().err.startswith("error: --llm: model 'gpt4'")
    assert main(["interview", str(night_run), ISABELLA, "hi", "--llm", "openai/gpt-5.4-mini"]) == 1
    assert "OPENAI_API_KEY" in capsys.readouterr().err
    # A server of one's own needs no key: the model builds (no call is made until a question is asked).
    model, store = load_run(str(night_run), {"llm": "openai/gpt-5.4-mini", "api_base": "http://127.0.0.1:9/v1"})
    store.close()
    assert model.gateway.config.api_base == "http://127.0.0.1:9/v1"
    model.close()
