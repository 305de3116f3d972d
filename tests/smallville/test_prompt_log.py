"""`run.py simulate --log-prompts FILE`: every rendered prompt and its answer, one JSON object a line."""

import json
import os
from collections import Counter

import pytest

from agents.language.prompt_log import read_prompt_log
from smallville.cli import main as cli


@pytest.mark.slow  # simulates a run
def test_simulate_logs_every_prompt_and_answer_it_asks(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-log")
    log = tmp_path / "logs" / "prompts.jsonl"
    out = tmp_path / "run"
    argv = ["simulate", "--scenario", "the_ville_n3", "--embedder", "hashing", "--until", "2023-02-13T07:00"]
    assert cli([*argv, "--out", str(out), "--log-prompts", str(log)]) == 0
    records = read_prompt_log(log)
    calls = json.loads((out / "ledger.json").read_text())["totals"]["calls"]
    kinds = Counter(record["kind"] for record in records)
    assert {"importance", "wake_up", "day_plan", "hourly_schedule", "decompose", "action"} <= set(kinds)
    for record in records:
        assert set(record) == {"agent", "kind", "model", "source", "parameters", "messages", "answer"}
        assert record["model"] == "offline" and record["source"] == "model"
        assert [message["role"] for message in record["messages"]][:2] == ["system", "user"]
        assert record["messages"][1]["content"].startswith("Task: ") and record["answer"].startswith("{")
    assert {record["agent"] for record in records} == {"Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"}
    assert len(records) == calls  # one line a model call, the seeded memories' ratings included
    assert "sk-never-in-a-log" not in log.read_text() and os.environ["OPENAI_API_KEY"] == "sk-never-in-a-log"
