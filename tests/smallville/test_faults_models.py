"""The fault campaign, models: a fifth of the answers faulty over a 25-agent hour, and a model that only talks nonsense.

Both go through `run.py simulate` in-process and the real litellm path, against a fault-injecting loopback server.
Every injected fault must be retried (errors, hangs), repaired or fallen back (bad answers), and counted in the ledger;
no request and no event may be lost. A run that is mostly fallbacks must say so and exit non-zero.
"""

import json
import sqlite3

import pytest

from agents.language.backends.base import TransientError
from agents.language.backends.litellm_backend import LiteLLMBackend
from smallville.cli import main
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import checkpoint_calls
from testing import FaultInjectingServer, LoopbackServer

# A hang lasts longer than the calls' timeout (1 s under `quick_faults`, conftest.py), so it is a timeout to retry;
# both short to keep the test quick.
HANG_S = 3.0


def checkpoint(out) -> dict:
    return json.loads((out / "checkpoint" / "state.json").read_text())


def covered_calls(out) -> list[dict]:
    """The model calls the run's checkpoint covers (events.sqlite's `calls` table)."""
    return checkpoint_calls(RunFolder(out), checkpoint(out))


def count_connect_timeouts(monkeypatch) -> list[int]:
    """A one-item list counting the model's tries that timed out while connecting (they never reached a handler)."""
    unseen = [0]
    original = LiteLLMBackend.complete

    async def complete(self, *args, **kwargs):
        try:
            return await original(self, *args, **kwargs)
        except TransientError as error:
            unseen[0] += "Connection timeout" in str(error)
            raise

    monkeypatch.setattr(LiteLLMBackend, "complete", complete)
    return unseen


@pytest.mark.slow
def test_a_fifth_of_answers_faulty_over_a_25_agent_hour_loses_nothing(quick_faults, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    unseen = count_connect_timeouts(monkeypatch)
    with FaultInjectingServer(rate=0.2, seed=18, hang_s=HANG_S) as server:
        code = main(
            ["simulate", "--scenario", "the_ville_n25", "--embedder", "hashing", "--llm", "openai/loopback",
             "--api-base", server.url, "--until", "2023-02-13T01:00", "--out", str(out)]
        )  # fmt: skip
    printed = capsys.readouterr()
    assert code == 0, printed.err[-3000:]
    state = checkpoint(out)
    assert state["now"] == "2023-02-13T01:00:00"
    records = covered_calls(out)
    retries = sum(record["retries"] for record in records)
    repairs = sum(record["repaired"] for record in records)
    fallbacks = sum(record["fallback"] for record in records)
    calls = sum(record["calls"] for record in records)
    print(  # the figures for the closing note
        f"requests {len(records)}, server chat requests {server.chat_requests}, injected {dict(server.injected)}, "
        f"retries {retries} ({unseen[0]} connect timeouts), repairs {repairs}, fallbacks {fallbacks}"
    )
    assert server.transient >= 10 and server.bad_answers >= 10  # the campaign really injected faults
    # Every error and hang retried, and counted; on a loaded machine a sound answer can also outlast the short
    # timeout and be retried, which the accounting below still has to balance.
    assert retries >= server.transient
    # Every request the server saw is accounted for; on a loaded machine a try can also time out connecting, before
    # the server's handler saw it: those are the only tries the server may not have counted.
    assert server.chat_requests <= calls + retries <= server.chat_requests + unseen[0]
    assert 0 < repairs + fallbacks <= server.bad_answers  # bad answers repaired or replaced (some kinds take any text)
    assert fallbacks < repairs  # a repair usually works
    with sqlite3.connect(out / "events.sqlite") as db:
        stored = db.execute("select count(*) from events").fetchone()[0]
    assert stored == state["events"] > 0  # nothing lost between the model and the folder
    assert "25 agents" in printed.out and "retries" in printed.out and "repairs" in printed.out


@pytest.mark.slow
def test_a_model_that_only_talks_nonsense_fails_the_run_loudly(quick_faults, tmp_path, capsys):
    args = ["simulate", "--scenario", "the_ville_n3", "--embedder", "hashing", "--llm", "openai/loopback",
            "--until", "2023-02-13T00:10"]  # fmt: skip
    with FaultInjectingServer(rate=1.0, kinds=("malformed",)) as server:
        code = main([*args, "--api-base", server.url, "--out", str(tmp_path / "a")])
    printed = capsys.readouterr()
    assert code == 3
    assert "were fallbacks, more than --max-fallback-share 0.5" in printed.err
    assert "pass --accept-fallbacks" in printed.err
    records = covered_calls(tmp_path / "a")
    assert records and all(record["fallback"] and record["repaired"] for record in records)
    with FaultInjectingServer(rate=1.0, kinds=("malformed",)) as server:
        code = main([*args, "--api-base", server.url, "--out", str(tmp_path / "b"), "--accept-fallbacks"])
    assert code == 0


@pytest.mark.slow  # two runs through litellm (~10 s)
def test_a_server_that_refuses_the_first_call_leaves_no_folder_and_names_what_to_check(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    out = tmp_path / "run"
    town = ["simulate", "--scenario", "the_ville_n3", "--embedder", "hashing", "--until", "2023-02-13T01:00"]
    with LoopbackServer() as server:
        assert main([*town, "--llm", "openai/x", "--api-base", f"{server.root}/wrong", "--out", str(out)]) == 1
        line = capsys.readouterr().err.strip().splitlines()[-1]
        assert line.startswith("error: model 'openai/x' refused the call (NotFoundError, HTTP 404)")
        assert line.endswith("(importance request); check --llm and --api-base, then simulate again")
        assert not out.exists()  # nothing to resume: the same --out is free for the corrected command
        assert main([*town, "--llm", "openai/x", "--api-base", server.url, "--out", str(out)]) == 0
