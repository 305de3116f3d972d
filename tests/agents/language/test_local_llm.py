"""A short window of the town against a real local model (llama.cpp's server from `make local-llm`).

It proves the plumbing with a real tokenizer, real latency and grammar-constrained JSON: the run completes and the
ledger holds the server's own token counts, repairs and fallbacks. A 135M model cannot play the agents, so nothing
here asserts behaviour. Skipped, with the reason, when the server is not built.
"""

import json
import subprocess
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest

from agents.language.backends import dialects
from smallville.model import SmallvilleModel
from testing import free_port
from tests.sampled_requests import sampled_requests

ROOT = Path(__file__).resolve().parents[3]
BUILT = ROOT / ".cache" / "llama" / ".built"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.local_llm,
    pytest.mark.skipif(not BUILT.exists(), reason="no local model server: run `make local-llm` (about 12-30 min)"),
]


@pytest.fixture(scope="module")
def local_server():
    port = free_port()
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "local_llm.sh"), "serve"],
        env={"PATH": "/usr/bin:/bin", "LOCAL_LLM_PORT": str(port), "LOCAL_LLM_CTX": "4096"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the local model server did not answer within 120 s")
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_short_window_runs_to_the_end_against_the_local_model(local_server):
    model = SmallvilleModel(
        scenario_name="the_ville_n3",
        agents=["Isabella Rodriguez"],
        llm="hosted_vllm/smollm2",
        api_base=local_server,
        embedder="hashing",
        seconds_per_step=300,
        max_in_flight=1,
    )
    model.run_until(model.start + timedelta(minutes=30))
    model.close()
    ledger = model.gateway.ledger
    totals = ledger.totals()
    assert totals.requests > 3 and totals.calls == totals.requests + totals.repairs
    assert totals.prompt_tokens > 100 * totals.calls  # the server's own counts of long prompts
    assert totals.fallbacks <= totals.repairs  # a fallback always follows a failed repair
    assert {record.answer_format for record in ledger.records} <= {"json_object", "prompt"}


def test_llama_cpp_pythons_own_converter_compiles_every_kinds_schema_with_its_ranges(tmp_path):
    """The server turns a schema it cannot convert into "any JSON" without a word (_grammar_for_json_schema's
    fallback), and its converter skips minimum/maximum: every kind's schema must convert, its small ranges as
    enumerations (insights' question numbers: SmolLM2 wrote question 4 of 1 before)."""
    schemas = {
        kind: dialects.rewrite(request.answer_schema(), dialects.GRAMMAR)
        for kind, request in sampled_requests(judge=True).items()
        if request.answer_model is not None
    }
    (tmp_path / "schemas.json").write_text(json.dumps(schemas))
    convert = (
        "import json, sys\n"
        "from llama_cpp.llama_grammar import json_schema_to_gbnf\n"
        "schemas = json.load(open(sys.argv[1]))\n"
        "print(json.dumps({kind: json_schema_to_gbnf(json.dumps(schema)) for kind, schema in schemas.items()}))\n"
    )
    venv_python = ROOT / ".cache" / "llama" / "venv" / "bin" / "python"
    done = subprocess.run(
        [venv_python, "-c", convert, tmp_path / "schemas.json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    grammars = json.loads(done.stdout)
    assert set(grammars) == set(schemas)

    def alternatives(kind: str, rule: str) -> list[str]:
        line = next(line for line in grammars[kind].splitlines() if line.startswith(f"{rule} ::="))
        return [alternative.strip() for alternative in line.split("::=")[1].split("|")]

    questions = len(sampled_requests()["insights"].questions)
    assert alternatives("insights", "insights-item-question") == [f'"{n}"' for n in range(1, questions + 1)]
    assert alternatives("importance", "scores-item") == [f'"{n}"' for n in range(1, 11)]
