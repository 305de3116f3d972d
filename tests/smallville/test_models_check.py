"""`run.py models check` against the loopback server in every wire format it speaks, and models that cannot run a
town: the table says how each kind went, and the exit status whether a town would run."""

import pytest

from smallville.cli import main
from testing import LoopbackServer
from tests.sampled_requests import sampled_requests

# (model, which of the server's base URLs it takes, the form its table shows)
FORMATS = [
    ("openai/loopback", "url", "json_schema"),
    ("hosted_vllm/loopback", "url", "json_schema"),
    ("ollama_chat/loopback", "root", "format"),
    ("anthropic/claude-haiku-4-5", "root", "output_config.format"),
    ("gemini/gemini-3.5-flash", "gemini", "response_json_schema"),
]
TOWN_KINDS = sorted(sampled_requests())
# The evaluation's kinds `--judge` adds: one at a time, and several at once (as `evaluate` asks them).
JUDGE_KINDS = ["judge", "rank", "fact_check", "ground", "interviews", "ranks", "fact_checks"]


def test_the_check_asks_every_kind_the_agents_and_the_judge_ask():
    from agents.language.requests import ALL_REQUESTS

    asked = {request.kind for request in sampled_requests(judge=True).values()} | {"scored"}
    assert {cls.kind for cls in ALL_REQUESTS} <= asked


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-loopback")
    monkeypatch.setenv("GEMINI_API_KEY", "test-loopback")


def check(capsys, *words):
    code = main(["models", "check", *words])
    return code, capsys.readouterr().out


def rows(out: str) -> dict[str, list[str]]:
    """The table's rows by kind: their cells."""
    found = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip("│┃ ").split("│")]
        if cells and cells[0] in {*TOWN_KINDS, *JUDGE_KINDS}:
            found[cells[0]] = cells
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("model", "base", "form"), FORMATS, ids=[model.split("/")[0] for model, _, _ in FORMATS])
def test_every_kind_is_answered_in_every_wire_format(capsys, keys, model, base, form):
    with LoopbackServer() as server:
        code, out = check(capsys, "--llm", model, "--api-base", getattr(server, base), "--judge")
        asked = server.stats.requests
    table = rows(out)
    assert code == 0, out
    assert sorted(table) == sorted([*TOWN_KINDS, *JUDGE_KINDS])
    for kind, cells in table.items():
        assert cells[1] == form and cells[2] == "parsed", (kind, cells)
    assert asked == len(table)  # one call a kind: nothing repaired, nothing retried
    assert f"{model} can run a town: {len(table)} of {len(table)} kinds answered (0 after a repair)" in out


@pytest.mark.slow  # every kind through litellm to a loopback server
def test_a_llama_cpp_server_refusing_json_schema_gets_json_object_after_one_refusal(capsys):
    with LoopbackServer(refuse_json_schema=True) as server:
        code, out = check(capsys, "--llm", "openai/smollm2", "--api-base", server.url)
        statuses = dict(server.stats.statuses)
    table = rows(out)
    assert code == 0 and statuses == {500: 1, 200: len(TOWN_KINDS)}
    assert {cells[1] for cells in table.values()} == {"json_object+schema"}
    assert "1 weaker form after a refusal" in table[next(iter(sampled_requests()))][-1]


@pytest.mark.slow  # a town on a model that never parses
def test_a_model_whose_answers_never_parse_cannot_run_a_town(capsys):
    with LoopbackServer(faults=["malformed"] * 100) as server:
        code, out = check(capsys, "--llm", "hosted_vllm/babbler", "--api-base", server.url)
    table = rows(out)
    assert code == 1
    assert {cells[2] for cells in table.values()} == {"fell back"}
    assert "hosted_vllm/babbler cannot run a town: importance fell back, wake_up fell back" in " ".join(out.split())


@pytest.mark.slow  # waits for a dead server and checks every kind
def test_a_refusing_model_is_named_per_kind_and_a_dead_server_stops_the_check(capsys):
    with LoopbackServer(refuse_params=("seed",)) as server:
        code, out = check(capsys, "--llm", "hosted_vllm/picky", "--api-base", server.url)
    assert code == 1 and {cells[2] for cells in rows(out).values()} == {"refused"}
    code, out = check(capsys, "--llm", "hosted_vllm/gone", "--api-base", "http://127.0.0.1:9/v1", "--timeout", "2")
    outcomes = [cells[2] for cells in rows(out).values()]
    assert code == 1 and outcomes == ["failed"]  # the rest in one row, not one each
    assert f"{len(TOWN_KINDS) - 1} more kinds" in out and "Cause: unreachable server" in out


@pytest.mark.slow  # checks two models, every kind
def test_a_matrix_shows_models_side_by_side_and_fails_if_one_cannot(capsys):
    with LoopbackServer() as good, LoopbackServer(faults=["malformed"] * 100) as bad:
        code, out = check(capsys, "--matrix", "offline,hosted_vllm/loopback", "--api-base", good.url)
        assert code == 0 and "offline" in out and "hosted_vllm/loopback" in out
        assert all(cells[1:] == ["ok (offline)", "ok (json_schema)"] for cells in rows(out).values())
        code, out = check(capsys, "--matrix", f"offline,hosted_vllm/babbler@{bad.url}", "--api-base", good.url)
    assert code == 1 and "hosted_vllm/babbler cannot run a town" in " ".join(out.split())


def test_a_wrong_name_is_one_line(capsys):
    assert main(["models", "check", "--llm", "gpt-5"]) == 1
    assert "error: --llm: model 'gpt-5': use 'offline' or a litellm name" in capsys.readouterr().err


def test_a_refused_key_is_said_once_and_the_closing_line_names_the_cause_and_fix(capsys):
    with LoopbackServer(faults=["401"]) as server:
        code, out = check(capsys, "--llm", "openai/gpt-5.4-mini", "--api-base", server.url)
        asked = server.stats.requests
    assert code == 1 and asked == 1  # every kind would meet the same refusal: asked once
    assert [cells[2] for cells in rows(out).values()] == ["refused"]
    assert len(out.splitlines()) < 40  # not 136 lines: one row of the same refusal for each kind
    said = " ".join(out.split())
    closing = said[said.index("openai/gpt-5.4-mini cannot run a town") :]  # the last line, as the console wraps it
    assert closing.startswith(f"openai/gpt-5.4-mini cannot run a town: importance refused and {len(TOWN_KINDS) - 1} ")
    assert "Cause: authentication; fix: check the API key" in closing


def test_a_server_that_never_answers_is_reported_by_its_timeouts():
    from smallville.cli import build_parser
    from smallville.commands.models import CHECK_RETRIES

    timeout = build_parser().parse_args(["models", "check", "--llm", "openai/x"]).timeout
    assert timeout * (CHECK_RETRIES + 1) + 0.5 < 60  # the default: a silent server is reported within a minute
    from smallville.model_trial import KindCheck, ModelCheck

    failed = KindCheck("importance", "-", "failed", note="model failed 2 times: model 'x' failed (Timeout): timed out")
    verdict = ModelCheck("openai/x", [failed]).verdict()
    assert verdict.endswith("Cause: timeouts; fix: the server did not answer within --timeout: check that it is "
                            "not stuck or overloaded, or raise --timeout")  # fmt: skip
