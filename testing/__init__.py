"""The test rig: fake model servers and the page server, for tests, benchmarks and scripts; never for the product.

A sibling of the product's packages (agents, memory, environment, smallville), not one of them: it imports them,
and none of them imports it (tests/test_rig.py). It lives in the checkout and is importable from there, as the
project's root is on the development environment's path (pyproject.toml, `dev-mode-dirs`), but it is not in the
wheel.

- `LoopbackServer`: a fake model server on 127.0.0.1 in OpenAI's, ollama's, Anthropic's and Gemini's wire formats,
  answering every request type validly (`answer_for_messages`), with latency, injected faults (`FAULTS`) and a
  capture of what litellm sent; `python -m testing` serves one from the command line.
- `FaultInjectingServer` and `DyingServer`: loopback servers that fail at random, or die after some answers.
- `serve_page`: `run.py serve` on a `free_port`, waited for until its page answers; `stop_page` ends it.
"""

from testing.fault_servers import DyingServer, FaultInjectingServer
from testing.loopback_answers import RIDER, answer_for_messages
from testing.loopback_server import FAULTS, LoopbackServer, call_latency
from testing.pages import CHROMIUM, PageServer, free_port, open_town, serve_page, stop_page

__all__ = [
    "CHROMIUM",
    "FAULTS",
    "RIDER",
    "DyingServer",
    "FaultInjectingServer",
    "LoopbackServer",
    "PageServer",
    "answer_for_messages",
    "call_latency",
    "free_port",
    "open_town",
    "serve_page",
    "stop_page",
]
