"""`run.py join`: a player joins a run, talks with an agent, is remembered, and the run replays and forks exactly."""

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from smallville.cli import main
from smallville.commands.loading import load_run
from smallville.players.visit import join, joined_at, said_to, say
from tests.smallville.run_folders import FAST, events, final_state, simulated

MORNING = [*FAST, "--seconds-per-step", "30"]
AT = "2023-02-13T08:30"
ISABELLA = "Isabella Rodriguez"
PLAYER = "Alex Park"


@pytest.fixture(scope="module")
def morning(tmp_path_factory) -> Path:
    """The 3-agent town up to 08:30 (Isabella at her cafe), that moment kept to fork from."""
    return simulated(tmp_path_factory.mktemp("join") / "morning", *MORNING, "--until", AT, "--keep-checkpoints", AT)


@pytest.fixture
def joined(morning, tmp_path, capsys) -> tuple[Path, str]:
    """A copy of the morning that a player joined: a line to Isabella at her cafe, and a stay; with what it printed."""
    run = tmp_path / "joined"
    shutil.copytree(morning, run)
    capsys.readouterr()
    argv = ["join", str(run), "--as", PLAYER, "--persona", "a reporter for the Ville Gazette", "--at", "Hobbs Cafe",
            "--say", "isabella rodriguez", "Hello! What is new at the cafe?", "--stay", "5"]  # fmt: skip
    assert main(argv) == 0
    return run, capsys.readouterr().out


@pytest.mark.slow  # simulates a morning
def test_a_players_line_is_answered_kept_and_remembered(joined, capsys):
    run, printed = joined
    assert f"{PLAYER}: Hello! What is new at the cafe?" in printed
    answer = next(line for line in printed.splitlines() if f" {ISABELLA}: " in line)
    log = events(run)
    assert (PLAYER, "line", "Hello! What is new at the cafe?") in [entry[1:] for entry in log]
    assert (ISABELLA, "line", answer.split(f"{ISABELLA}: ", 1)[1]) in [entry[1:] for entry in log]
    talks = [entry for entry in log if entry[1] == ISABELLA and entry[2] == "talk"]
    assert talks and PLAYER in talks[-1][3]  # the agent kept the talk, summarized
    kinds = [entry[3] for entry in log if entry[2] == "intervention" and entry[1] == PLAYER]
    assert kinds[0].startswith("joins the town at the Ville:Hobbs Cafe") and kinds[-1] == "leaves the town"
    state = json.loads((run / "checkpoint" / "state.json").read_text())["model"]
    assert "players" not in state and PLAYER not in state["world"]["agents"]  # left: gone from the map
    assert [item["kind"] for item in state["interventions"]["items"]] == ["join", "say", "leave"]

    model, store = load_run(str(run))
    stored = [node.description for agent in model.people for node in agent.memories.stream.about(PLAYER)]
    seen = stored + [memory.description for agent in model.people for memory in agent.memories.pending]  # to rate
    store.close()
    model.close()
    assert any(text.startswith(f"{PLAYER} is ") for text in seen)  # perceived within vision: an event remembered
    assert main(["interview", str(run), ISABELLA, f"What do you know about {PLAYER}?"]) == 0
    assert PLAYER.split(maxsplit=1)[0] in capsys.readouterr().out  # the interview sees what she remembers of the player


@pytest.mark.slow  # simulates a morning and forks it
def test_a_run_with_a_player_forks_and_replays_exactly(joined, tmp_path):
    run, _ = joined
    assert main(["resume", str(run), "--until", "2023-02-13T09:00"]) == 0
    fork = tmp_path / "fork"
    assert main(["fork", str(run), "--at", AT, "--out", str(fork)]) == 0  # no change: the player's lines said again
    assert events(fork) == events(run)
    assert final_state(fork)["model"] == final_state(run)["model"]


BAD = [
    (["--say", "Isabela Rodrigez", "Hi"], "did you mean 'Isabella Rodriguez'"),
    (["--at", "Atlantis"], "no place named 'Atlantis'"),
    (["--as", "klaus  mueller", "--at", "Hobbs Cafe"], "is an agent of this town"),
    (["--say", ISABELLA, "   "], "the line is empty"),
    (["--say", ISABELLA, "Hi\x1b[2J"], "control characters"),
    (["--persona", "a reporter\x07"], "control characters"),
    ([], "give --at PLACE, --say AGENT TEXT"),
    (["--at", "Hobbs Cafe", "--stay", "-1"], "--stay -1"),
]
BAD_IDS = ["unknown agent", "unknown place", "an agent's name", "empty line", "control line", "control persona",
           "nothing to do", "bad stay"]  # fmt: skip


@pytest.mark.slow  # simulates a morning
@pytest.mark.parametrize(("extra", "message"), BAD, ids=BAD_IDS)
def test_bad_inputs_are_one_line_each_and_change_nothing(morning, tmp_path, capsys, extra, message):
    run = tmp_path / "run"
    shutil.copytree(morning, run)
    before = (run / "checkpoint" / "state.json").read_text()
    capsys.readouterr()
    assert main(["join", str(run), *(extra if "--as" in extra else ["--as", PLAYER, *extra])]) != 0
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1, error
    assert (run / "checkpoint" / "state.json").read_text() == before


# A player whom Isabella, at her counter, chooses to talk to on sight at 08:xx (the offline mind's draw for the pair
# and hour is below even its chance for a stranger): she comes up and opens the talk herself.
NOTICED = "Lin Wu"


@pytest.mark.slow  # simulates a morning, joins and forks it
def test_an_agent_opens_a_talk_with_a_player_it_sees_and_the_run_replays(morning, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(morning, run)
    capsys.readouterr()
    assert main(["join", str(run), "--as", NOTICED, "--at", "Hobbs Cafe", "--stay", "25"]) == 0
    printed = capsys.readouterr().out
    opening = next(line for line in printed.splitlines() if f" {ISABELLA} (to {NOTICED}): " in line)
    log = events(run)
    assert (ISABELLA, "line", opening.split(": ", 1)[1]) in [entry[1:] for entry in log]
    talk = next(entry for entry in log if entry[1] == ISABELLA and entry[2] == "talk")
    leave = next(entry for entry in log if entry[1] == NOTICED and entry[3] == "leaves the town")
    assert NOTICED in talk[3] and talk[0] < leave[0]  # an opening left unanswered ends the talk before the player goes
    assert main(["resume", str(run), "--until", "2023-02-13T09:00"]) == 0
    fork = tmp_path / "fork"
    assert main(["fork", str(run), "--at", AT, "--out", str(fork)]) == 0  # the agent's opening is said again
    assert events(fork) == events(run)


@pytest.mark.slow  # simulates a morning
def test_a_player_answers_the_talk_an_agent_opened(morning, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(morning, run)
    model, store = load_run(str(run), write=True)
    try:
        start = model.now
        join(model, NOTICED, "a visitor", "the Ville:Hobbs Cafe")
        model.run_until(start + timedelta(minutes=12))
        heard = said_to(model, NOTICED, joined_at(model, NOTICED))  # what the page's player box shows
        assert [reply.agent for _, reply in heard] == [ISABELLA]
        reply = say(model, NOTICED, ISABELLA, "Nice to meet you! Tell me more.")
        assert reply.line  # she answers in the talk she opened: the player speaks second
        assert [entry["agent"] for entry in model.event_log if entry["kind"] == "line"][-3:] == [
            ISABELLA,
            NOTICED,
            ISABELLA,
        ]
    finally:
        store.close()
        model.close()
