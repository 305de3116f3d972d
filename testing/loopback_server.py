"""A fake model server on 127.0.0.1, for tests and benchmarks of the real litellm path, in three wire formats.

OpenAI's chat completions (`openai/`, `hosted_vllm/`: `url`; Azure's deployments path: `root`), ollama's /api/chat
(`ollama_chat/`: `root`), Anthropic's /v1/messages (`anthropic/`: `root`), Gemini's generateContent (`gemini/`:
`gemini`) and Bedrock's Converse (`bedrock/`: `root`), all on one port.

Started and stopped by the tests themselves (a context manager on a free port, in a background thread, with a
maximum lifetime), with configurable latency (fixed, or spread as a hosted model's is), injected failures, and a count
of the most requests held at once; with `capture`, every request's path, headers (keys left out) and body, to check
what litellm sends each provider.
Answers come from `loopback_answers`, valid for every request type. It never listens beyond loopback.
"""

import asyncio
import math
import random
import threading
import zlib
from collections import Counter
from dataclasses import dataclass, field

from aiohttp import web

from agents.language.backends import estimate_tokens
from testing import loopback_wires as wires
from testing.loopback_answers import answer_for_messages

# Faults, consumed one per request in order: "429", "500", "hang", "empty", "malformed", "long", "cut" (the answer's
# first half, ended as the token budget ends it).
FAULTS = ("429", "500", "hang", "empty", "malformed", "long", "cut")
# "401" (a key the server refuses) is asked for by name too, as a refusal and not a fault.
# Faults of the answer's envelope rather than its text, asked for by name (not among FAULTS' random draws): no
# choice at all ("no_choices": OpenAI's empty `choices`, Anthropic's empty `content`, Gemini's empty `candidates`)
# and a usage block that is not one ("bad_usage").
ENVELOPE_FAULTS = ("no_choices", "bad_usage")
# Headers that carry a key: never kept by the capture.
SECRET_HEADERS = frozenset({"authorization", "x-api-key", "x-goog-api-key", "api-key"})
# What llama.cpp's server says to OpenAI's json_schema response_format (HTTP 500).
JSON_SCHEMA_REFUSAL = (
    "1 validation error: response_format.type: Input should be 'text' or 'json_object' (literal_error)"
)


def call_latency(latency: float, spread: float, texts) -> float:
    """How long a request waits for its answer: `latency`, or with a `spread`, a log-normal draw around it.

    A hosted model's latency spreads (a long answer, a busy server), and lock-step then waits for the slowest call of
    every step. The draw has median `latency` and shape `spread` (the standard deviation of its logarithm: 0.5 puts
    one call in twenty above 2.3x the median), seeded by the request's texts, so the same request waits as long in
    every run.
    """
    if not spread:
        return latency
    draw = random.Random(zlib.crc32("\n".join(texts).encode())).gauss(0.0, 1.0)
    return latency * math.exp(spread * draw)


@dataclass
class ServerStats:
    """What the server saw."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: Counter = field(default_factory=Counter)
    bodies: list = field(default_factory=list)  # the last requests' bodies, as sent
    captured: list = field(default_factory=list)  # with capture on: every request's (path, headers, body)


class LoopbackServer:
    """A fake model server: `with LoopbackServer(latency=0.3) as server: ... server.url ...`."""

    def __init__(self, latency: float = 0.0, faults: list[str] | None = None, lifetime_s: float = 600.0,
                 hang_s: float = 30.0, port: int = 0, refuse_json_schema: bool = False,
                 refuse_params: tuple[str, ...] = (), latency_spread: float = 0.0, capture: bool = False,
                 retry_after: str | None = None):  # fmt: skip
        self.latency = latency
        self.latency_spread = latency_spread
        self.retry_after = retry_after  # the Retry-After header of an injected 429, as a server writes it
        self.refuse_json_schema = refuse_json_schema
        self.refuse_params = refuse_params
        self.capture = capture
        self.prefix_cache = wires.PrefixCache()
        self.faults = list(faults or [])
        self.lifetime_s = lifetime_s
        self.hang_s = hang_s
        self.port = port
        self.stats = ServerStats()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None

    @property
    def url(self) -> str:
        """The OpenAI-style base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def gemini(self) -> str:
        """The base URL of Gemini's format (litellm adds /models/<model>:generateContent)."""
        return f"http://127.0.0.1:{self.port}/v1beta"

    @property
    def root(self) -> str:
        """The base URL of ollama's and Anthropic's formats."""
        return f"http://127.0.0.1:{self.port}"

    async def _chat(self, request: web.Request) -> web.Response:
        return await self._answer(request, wires.openai_messages, wires.openai_response)

    async def _ollama(self, request: web.Request) -> web.Response:
        return await self._answer(request, wires.openai_messages, wires.ollama_response)

    async def _ollama_show(self, request: web.Request) -> web.Response:
        del request  # litellm asks ollama what the model is; a bare answer is enough
        return web.json_response({"template": "", "details": {}, "model_info": {}})

    async def _anthropic(self, request: web.Request) -> web.Response:
        return await self._answer(request, wires.anthropic_messages, wires.anthropic_response)

    async def _gemini(self, request: web.Request) -> web.Response:
        return await self._answer(request, wires.gemini_messages, wires.gemini_response)

    async def _bedrock(self, request: web.Request) -> web.Response:
        return await self._answer(request, wires.bedrock_messages, wires.bedrock_response)

    def _refusal(self, body: dict) -> web.Response | None:
        answer_format = body.get("response_format") or {}
        if self.refuse_json_schema and answer_format.get("type") == "json_schema":
            return web.json_response({"error": {"message": JSON_SCHEMA_REFUSAL}}, status=500)
        for name in self.refuse_params:
            if name in body or name in (body.get("options") or {}):
                message = f"Unsupported parameter: '{name}' is not supported with this model."
                return web.json_response({"error": {"message": message, "param": name}}, status=400)
        return None

    async def _answer(self, request: web.Request, read, respond) -> web.Response:
        body = await request.json()
        self.stats.bodies = [*self.stats.bodies[-49:], body]
        if self.capture:
            headers = {
                key.lower(): value for key, value in request.headers.items() if key.lower() not in SECRET_HEADERS
            }
            self.stats.captured.append((request.path, headers, body))
        if (refusal := self._refusal(body)) is not None:
            self.stats.requests += 1
            self.stats.statuses[refusal.status] += 1
            return refusal
        messages = read(body)
        self.stats.requests += 1
        self.stats.in_flight += 1
        self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
        try:
            fault = self.faults.pop(0) if self.faults else None
            texts = [message["content"] for message in messages]
            wait = call_latency(self.latency, self.latency_spread, texts)
            await asyncio.sleep(self.hang_s if fault == "hang" else wait)
            if fault in {"429", "500", "401"}:
                self.stats.statuses[int(fault)] += 1
                headers = {"Retry-After": self.retry_after} if fault == "429" and self.retry_after else None
                message = "Incorrect API key provided." if fault == "401" else f"injected {fault}"
                return web.json_response(
                    {"error": {"message": message, "type": "invalid_request_error"}}, status=int(fault), headers=headers
                )
            text = answer_for_messages(messages)
            text = {"empty": "", "malformed": "{not json", "long": "x" * 50_000, "cut": text[: len(text) // 2]}.get(
                fault, text
            )
            self.stats.statuses[200] += 1
            prompt = sum(estimate_tokens(m["content"]) for m in messages)
            cached = min(prompt, self.prefix_cache.cached_tokens(messages))
            reasoned = "reasoning_effort" in body or "thinkingConfig" in (body.get("generationConfig") or {})
            model = (
                body.get("model") or request.match_info.get("target", "loopback").split(":")[0]
            )  # Gemini: in the path
            answer = respond(model, text, prompt, cached, cut=fault == "cut", reasoned=reasoned)
            return web.json_response(wires.damaged(answer, fault) if fault in ENVELOPE_FAULTS else answer)
        finally:
            self.stats.in_flight -= 1

    async def _embeddings(self, request: web.Request) -> web.Response:
        body = await request.json()
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        self.stats.requests += 1
        await asyncio.sleep(call_latency(self.latency, self.latency_spread, texts))  # an embedding API is late too
        data = [{"object": "embedding", "index": i, "embedding": _toy_vector(text)} for i, text in enumerate(texts)]
        usage = {"prompt_tokens": sum(map(estimate_tokens, texts)), "total_tokens": sum(map(estimate_tokens, texts))}
        return web.json_response({"object": "list", "data": data, "model": body.get("model"), "usage": usage})

    async def _serve(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/embeddings", self._embeddings)
        app.router.add_post("/api/chat", self._ollama)
        app.router.add_post("/api/show", self._ollama_show)
        app.router.add_post("/v1/messages", self._anthropic)
        app.router.add_post("/v1beta/models/{target}", self._gemini)
        app.router.add_post("/openai/deployments/{deployment}/chat/completions", self._chat)  # Azure OpenAI
        app.router.add_post("/model/{target}/converse", self._bedrock)  # Bedrock's Converse API
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._stop = asyncio.Event()
        self._ready.set()
        try:
            await asyncio.wait_for(self._stop.wait(), timeout=self.lifetime_s)
        except TimeoutError:
            pass
        finally:
            await runner.cleanup()

    def start(self) -> "LoopbackServer":
        """Start serving in a background thread; returns when the port is open."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(),), daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the loopback server did not start within 10 s")
        return self

    def wait(self) -> None:
        """Block until the server stops (its lifetime ends, or `stop` is called from another thread)."""
        if self._thread:
            self._thread.join()

    def stop(self) -> None:
        """Stop serving."""
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread:
            self._thread.join(timeout=10)

    def __enter__(self) -> "LoopbackServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _toy_vector(text: str, dim: int = 16) -> list[float]:
    vector = [0.0] * dim
    for index, char in enumerate(text.encode()):
        vector[(char + index) % dim] += 1.0
    norm = sum(v * v for v in vector) ** 0.5 or 1.0
    return [v / norm for v in vector]
