"""The real path: `evaluate` through litellm against the loopback server, answers and judgements included."""

import json
import re

import pytest

from smallville.cli import main
from testing import LoopbackServer, answer_for_messages, loopback_server
from tests.smallville.run_folders import simulate_three

BATTERY = 'name = "tiny"\n[[categories]]\nname = "memory"\nquestions = ["Who is {acquaintance}?", "Who are you?"]\n'


def _answers(messages):  # noqa: PLR0911 - one return a task
    """The loopback's answers, and the evaluation's own tasks: a ranking of every label, a fact check."""
    prompt = messages[-1]["content"]
    if prompt.startswith("Task: rank answers by how believable they are, for each of"):
        questions = prompt.split("\n\nQuestion ")[1:]
        labels = [re.findall(r"^Answer ([A-Z]):", question, re.MULTILINE) for question in questions]
        return json.dumps({"answers": [{"ranking": shown[::-1], "reason": "the last shown first"} for shown in labels]})
    if prompt.startswith("Task: answer several interview questions"):
        remembered = re.findall(r"^\d+\. \".*\" \(memories: (.*)\)$", prompt, re.MULTILINE)
        counts = [0 if shown == "none" else len(shown.split(", ")) for shown in remembered]
        return json.dumps({"answers": [{"answer": f"I remember {count} things."} for count in counts]})
    if prompt.startswith("Task: check whether each of"):
        count = int(re.match(r"Task: check whether each of (\d+)", prompt).group(1))
        return json.dumps({"answers": [{"shows": True, "reason": "it says so"}] * count})
    if prompt.startswith("Task: rank answers"):
        labels = re.search(r"Rank all \d+ answers \(([A-Z, ]+)\)", prompt).group(1).split(", ")
        return json.dumps({"ranking": labels[::-1], "reason": "the last shown first"})
    if prompt.startswith("Task: check whether an answer shows a fact"):
        return json.dumps({"shows": True, "reason": "it says so"})
    if prompt.startswith("Task: check which memories support"):
        return json.dumps({"supported_by": [], "reason": "none says it"})
    if prompt.startswith("Task: answer an interviewer's question"):
        remembered = len(re.findall(r"^\d+\. ", prompt, re.MULTILINE))
        return json.dumps({"answer": f"I remember {remembered} things."})  # conditions differ: the judge ranks
    return answer_for_messages(messages)


@pytest.mark.slow
def test_evaluate_through_litellm_against_the_loopback_server(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-loopback")
    monkeypatch.setattr(loopback_server, "answer_for_messages", _answers)
    run = simulate_three(tmp_path / "run", "2023-02-13T02:00")
    battery = tmp_path / "tiny.toml"
    battery.write_text(BATTERY)
    with LoopbackServer() as server:
        argv = ["evaluate", str(run), "--llm", "openai/loopback", "--judge", "openai/loopback-judge"]
        assert main([*argv, "--api-base", server.url, "--repeats", "2", "--battery", str(battery)]) == 0
    folder = run / "evaluation"
    ledger = json.loads((folder / "ledger.json").read_text())
    # 3 agents: the 2 questions of one category asked at once under each of 4 conditions, ranked at once twice; its 2
    # facts asked and checked at once, its 2 others at once, each "yes" grounded.
    kinds = dict(ledger["requests_by_kind"])
    judgements = [json.loads(line) for line in (folder / "judgements.jsonl").read_text().splitlines()]
    asked = len({(j["agent"], j["key"].split("|")[2]) for j in judgements if j["distinct"] > 1})
    # An interview identical to one already asked (two conditions showing the same memories) is asked once.
    assert kinds.pop("interviews") == 3 * (4 + 2) - ledger["reused"]
    assert kinds == {"ranks": asked, "fact_checks": 3 * 2, "ground": 3 * 4}
    assert ledger["calls"] == server.stats.requests == sum(ledger["requests_by_kind"].values())
    answers = [json.loads(line)["answer"] for line in (folder / "answers.jsonl").read_text().splitlines()]
    assert "I remember 0 things." in answers  # persona_only: no memory shown
    asked = [j for j in judgements if j["distinct"] > 1]  # every condition's answer shown, all alike not at all
    assert asked and all(j["positions"] == [[i] for i in reversed(range(len(j["shown"])))] for j in asked)
    assert all(j["groups"][0][0] == j["shown"][-1] for j in asked)
    measures = json.loads((folder / "measures.json").read_text())
    assert measures["hallucinations"] > 0  # "yes" to everything: claims the memory does not back are caught
