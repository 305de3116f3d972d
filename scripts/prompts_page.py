"""Write docs/prompts.md: one rendered prompt of each kind, with its answer and its answer schema, from a real run.

The three agents of the_ville_n3 live a day offline and wake into the next (so that the day's look back and the next
day's plan are asked), with a low reflection threshold so that they reflect; the first request of each kind is shown
as the gateway sent it. Run it after changing a prompt: `.venv/bin/python scripts/prompts_page.py` (about 10 s);
tests/agents/language/test_prompts_page.py fails while the page is out of date.
"""

import json
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "prompts.md"
END = datetime(2023, 2, 14, 7, 0)
INTRO = """# The prompts

What an agent does with a real model is what its prompts let it know. This page shows one prompt of every kind the
town asks, exactly as the gateway rendered it in a run of the three-agent town (`the_ville_n3`, offline, from midnight
to 7 am the next day), with the offline mind's answer and the JSON schema sent as the answer format. It is written by
`scripts/prompts_page.py` and checked by a test, so it is always the current text.

To see every prompt of your own run, and what your model answered:

```sh
.venv/bin/python run.py simulate --scenario the_ville_n3 --until 2023-02-13T09:00 --log-prompts prompts.jsonl
```

Each line of `prompts.jsonl` is one model call (a repair included) or one answer the response cache gave:
`{"agent", "kind", "model", "source", "parameters", "messages", "answer"}`.

Every request of an agent starts with the same system message (the shared instructions, the persona and the places
it knows), so that a provider can cache it; it is shown once, below, for the first request. Quoted text (in double
quotes, as JSON strings) is data: what people said, wrote or remember. A request that also rates the agent's queued
memories (the importance "rider") ends with that paragraph and its answer carries "scores".
"""


def _block(text: str, language: str = "text") -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def page() -> str:
    """The page's Markdown, from a fresh offline run (the same every time: the offline mind is deterministic)."""
    from smallville.model import SmallvilleModel  # noqa: PLC0415 - heavy

    # A low reflection threshold so that they reflect, a short wait for a ride so that importance is asked alone.
    model = SmallvilleModel(
        scenario_name="the_ville_n3", embedder="hashing", reflection_threshold=60, importance_batch_minutes=60
    )
    first: dict[str, tuple] = {}
    ask = model.gateway.ask

    async def keep(request, agent):
        answer = await ask(request, agent)
        first.setdefault(request.kind, (agent, request))
        return answer

    model.gateway.ask = keep
    try:
        model.run_until(END)
    finally:
        model.close()
    from agents.language.offline import offline_answer  # noqa: PLC0415

    parts = [INTRO]
    shown_system = False
    for kind in sorted(first):
        agent, request = first[kind]
        system, user = request.messages()
        parts.append(f"## {kind}\n\nAsked for {agent} ({type(getattr(request, 'inner', request)).__name__}).")
        if not shown_system:
            parts.append(f"System message:\n\n{_block(system['content'])}")
            shown_system = True
        parts.append(f"User message:\n\n{_block(user['content'])}")
        answer = json.loads(offline_answer(request, seed=model.seed))
        parts.append(
            f"The offline mind's answer:\n\n{_block(json.dumps(answer, ensure_ascii=False, indent=1), 'json')}"
        )
        schema = request.answer_schema()
        if schema is not None:
            shown = _block(json.dumps(_shortened(schema), indent=1, ensure_ascii=False), "json")
            parts.append(f"<details><summary>Answer schema</summary>\n\n{shown}\n\n</details>")
    return "\n\n".join(parts) + "\n"


def _shortened(node):
    """A schema with each long list of alternatives (one per place offered) shown by its first and a count."""
    if isinstance(node, dict):
        shown = {key: _shortened(value) for key, value in node.items()}
        if len(node.get("anyOf", ())) > 2:
            shown["anyOf"] = [_shortened(node["anyOf"][0]), f"... {len(node['anyOf']) - 1} more, one per place offered"]
        return shown
    if isinstance(node, list):
        return [_shortened(item) for item in node]
    return node


def main() -> int:
    """Write the page."""
    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(page())
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
