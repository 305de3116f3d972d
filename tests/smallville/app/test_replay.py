"""Replaying a run folder: the recorded town at any minute, from the folder alone, without a model call."""

import json
import sqlite3
from datetime import datetime

import ipyvuetify
import pytest

from smallville.app.inspector import AgentInspector
from smallville.app.map_panel import TownMap
from smallville.app.replay import ReplayModel
from smallville.app.replay_controls import ReplayScrubber
from smallville.app.selection import selected_agent
from smallville.runs.store import RunFolderError
from tests.smallville.app.helpers import all_html_text, markers, panel_text, render_stacked


@pytest.fixture
def replay(run_folder):
    model = ReplayModel(run_folder=str(run_folder))
    yield model
    model.close()


def recorded_positions(run_folder, frame: int) -> dict[str, tuple[int, int]]:
    import pandas as pd

    rows = pd.read_csv(run_folder / "metrics" / "agents.csv", keep_default_na=False)
    chunk = rows.iloc[frame * 3 : frame * 3 + 3]
    return {row["name"]: (int(row["x"]), int(row["y"])) for _, row in chunk.iterrows()}


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_steps_and_seeks_move_the_clock_and_the_agents_as_recorded(replay, run_folder):
    assert replay.frames == 14 * 60 + 1 and replay.now.isoformat() == "2023-02-13T00:00:00"
    replay.step()
    assert replay.now.isoformat() == "2023-02-13T00:01:00"
    replay.seek(7 * 60 + 30)
    assert replay.now.isoformat() == "2023-02-13T07:30:00"
    assert {m.name: m.tile for m in replay.markers()} == recorded_positions(run_folder, 7 * 60 + 30)
    replay.seek(10_000)
    assert replay.frame == replay.frames - 1 and not replay.running
    replay.seek(-5)
    assert replay.frame == 0 and replay.running


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_the_card_shows_what_was_true_at_that_minute(replay, run_folder):
    with sqlite3.connect(run_folder / "events.sqlite") as db:
        line_time, speaker, text = db.execute(
            "select time, agent, text from events where kind = 'line' order by id limit 1"
        ).fetchone()
        recall_time, recaller = db.execute(
            "select time, agent from events where kind = 'recall' order by id limit 1"
        ).fetchone()
    # Before anyone spoke, the feed is empty; a minute after the first line, it holds it.
    replay.seek(60)
    assert replay.feed(10) == []
    hour, minute = int(line_time[11:13]), int(line_time[14:16])
    replay.seek(hour * 60 + minute + 1)
    assert any(line.speaker == speaker and line.text == text for line in replay.feed(40))
    # The retrieval recorded for a decision comes back with its scores and the memories' words.
    hour, minute = int(recall_time[11:13]), int(recall_time[14:16])
    replay.seek(hour * 60 + minute + 1)
    with sqlite3.connect(run_folder / "events.sqlite") as db:
        (details,) = db.execute(
            "select details from events where kind = 'recall' and agent = ? and time < ? order by id desc limit 1",
            (recaller, replay.now.isoformat()),
        ).fetchone()
    card = replay.card(recaller)
    recorded = json.loads(details)["memories"]
    assert [[m.score, m.recency, m.relevance, m.importance] for m in card.recalled] == [m[1:] for m in recorded]
    assert all(m.description for m in card.recalled)
    assert card.plan and sum(item.current for item in card.plan) == 1
    assert all(memory.created <= replay.now for memory in card.recent)


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_a_plan_appears_only_once_the_agent_has_made_it(replay):
    assert replay.card("Isabella Rodriguez").plan == []
    replay.seek(9 * 60)
    plan = replay.card("Isabella Rodriguez").plan
    assert plan[0].start == "00:00" and sum(item.minutes for item in plan) == 24 * 60
    assert next(item for item in plan if item.current).start <= "09:00"


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_the_panels_render_a_replay_with_a_scrubber_and_no_interview(replay):
    replay.seek(12 * 60)
    selected_agent.set("Klaus Mueller")

    rc = render_stacked(replay, ReplayScrubber, TownMap, AgentInspector)
    slider = rc.find(ipyvuetify.Slider).widget
    assert slider.max == replay.frames - 1 and slider.v_model == 12 * 60
    assert [marker["name"] for marker in markers(rc)] == ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
    assert panel_text(rc, "agent-card").startswith("Klaus Mueller (20)")
    assert "A replay only shows the run" in str(rc.find(ipyvuetify.Alert).widget.children)
    slider.v_model = 60
    assert replay.frame == 60 and "(now Mon 01:00)" in str(rc.find(ipyvuetify.Html).widgets[-1].children)
    card = replay.card("Klaus Mueller")
    expected = f"For: {card.recalled_for}" if card.recalled else "Nothing retrieved yet"
    assert expected in all_html_text(rc)
    rc.close()


def test_a_folder_that_is_not_a_run_is_refused_by_name(tmp_path):
    with pytest.raises(RunFolderError, match=r"not a run folder \(no config\.json\)"):
        ReplayModel(run_folder=str(tmp_path))


@pytest.fixture
def finished(run_folder):
    """The run folder `run.py simulate` writes, which the shared `run` fixture copies for a test to damage."""
    return run_folder


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_damaged_metrics_are_refused_with_the_file_named(run):
    agents = run / "metrics" / "agents.csv"
    agents.write_text("".join(agents.read_text().splitlines(keepends=True)[:-1]))
    with pytest.raises(RunFolderError, match=r"metrics/agents\.csv: holds \d+ rows, the checkpoint .*run\.py resume"):
        ReplayModel(run_folder=str(run))


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_a_run_still_being_written_replays_what_its_last_checkpoint_covers(run):
    covered = json.loads((run / "checkpoint" / "state.json").read_text())
    model_csv, agents_csv = run / "metrics" / "model.csv", run / "metrics" / "agents.csv"
    last = model_csv.read_text().splitlines()[-1]
    with model_csv.open("a") as handle:  # a row flushed after the checkpoint, and one cut short by a kill
        handle.write(last.replace("2023-02-13T14:00", "2023-02-13T14:01") + "\n" + last[:10])
    with agents_csv.open("a") as handle:
        handle.write(agents_csv.read_text().splitlines()[-1][:12])
    model = ReplayModel(run_folder=str(run))
    assert model.frames == covered["model_rows"]
    assert model.times[-1].isoformat() == covered["now"]
    model.close()


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_a_replay_built_in_one_thread_reads_its_memories_in_another(run_folder):
    """Reset builds the replay in a worker thread; the page then reads it in its own (the thread error of issue 46)."""
    import threading

    built = []
    worker = threading.Thread(target=lambda: built.append(ReplayModel(run_folder=str(run_folder), frame=600)))
    worker.start()
    worker.join()
    replay = built[0]
    card = replay.card("Isabella Rodriguez")
    assert card.recent and all(memory.created <= replay.now for memory in card.recent)
    closer = threading.Thread(target=replay.close)
    closer.start()
    closer.join()


@pytest.mark.slow  # on the run folder `run.py simulate` writes
def test_a_replay_draws_the_last_hours_walk_and_the_lines_being_said(replay, run_folder):
    frame = 9 * 60
    replay.seek(frame)
    trails = replay.trails(60)
    for name, tile in recorded_positions(run_folder, frame).items():
        walk = [recorded_positions(run_folder, earlier)[name] for earlier in range(frame - 60, frame + 1)]
        assert trails[name][-1] == tile
        assert trails[name] == [t for i, t in enumerate(walk) if i == 0 or t != walk[i - 1]]
    with sqlite3.connect(run_folder / "events.sqlite") as db:
        lines = db.execute("select time, agent, text from events where kind = 'line' order by id").fetchall()
    replay.seek(replay.frame_at(datetime.fromisoformat(lines[0][0])) + 1)  # the row after the talk's first line
    # A row is recorded after its step; lines stamped with the row's own time belong to the next step.
    said = [(agent, text) for time, agent, text in lines if time < replay.now.isoformat()]
    assert replay.speech()[0] == said[-1]  # the latest line said by then (an offline talk may be over in a minute)
    assert len(replay.speech()) == 1  # one talk: its latest line only
    replay.seek(0)
    assert replay.speech() == []
