"""What a mind is shown about a person: the share of the memories in its reactions and talk lines that involve them.

A reaction ("What Isabella Rodriguez remembers about Klaus Mueller") and each line of talk show the agent memories
retrieved for the other person; the paper's social behaviour comes from them. This runs a town offline, records every
reaction and talk-line request, and prints, for each retrieval weighting:
- involve: the share of shown memories that name the other person (full or first name), or are a talk with them;
- substantive: the share that involve them and are not merely something seen (seeds, thoughts, talks, reflections);
- first: the share of requests whose first shown memory involves the person;
- empty slots: the share of requests that show fewer memories than the setting allows (nothing padded in).
Run: .venv/bin/python benchmarks/bench_person_context.py [n3|n25] [until hour, default 12] [minilm|hashing]
(n25 to noon: a few minutes per weighting on 2 cores with MiniLM.)
"""

import argparse
import re
import time
from collections import defaultdict
from datetime import timedelta

from agents.embedder_choice import forget_embedders
from agents.language.requests import ConversationLineRequest, ReactionRequest, ScoredRequest
from memory import NodeKind
from smallville.model import SmallvilleModel


def involves(text: str, person: str) -> bool:
    """Whether a memory's text names the person, by full name or first name (a word of its own)."""
    first = person.split(maxsplit=1)[0]
    return re.search(rf"\b(?:{re.escape(person)}|{re.escape(first)})\b", text) is not None


def _record(model: SmallvilleModel, shown: list[tuple[str, str, str, tuple[str, ...], int]]) -> None:
    """Wrap the gateway so each reaction and talk-line request's shown memories are kept (kind, agent, other, ...)."""
    gateway = model.gateway
    ask = gateway.ask

    async def recording(request, agent):
        inner = request.inner if isinstance(request, ScoredRequest) else request
        if isinstance(inner, ReactionRequest):
            shown.append(
                ("reaction", agent, inner.other, inner.memories, model.people[0].mind.config.reaction_memories)
            )
        elif isinstance(inner, ConversationLineRequest):
            limit = model.people[0].mind.config.conversation_memories
            shown.append(("line", agent, inner.partner, inner.memories, limit))
        return await ask(request, agent)

    gateway.ask = recording


def _kinds(model: SmallvilleModel) -> dict[str, dict[str, NodeKind]]:
    """Each agent's memories by text: their kind (the newest of a wording)."""
    return {agent.name: {n.description: n.kind for n in agent.memories.stream} for agent in model.people}


def measure(scenario: str, hour: int, embedder: str, weights: str) -> dict[str, tuple[float, float, float, float, int]]:
    """Per request kind: shares involving, substantive, first involving, with empty slots; and the request count."""
    forget_embedders()
    model = SmallvilleModel(scenario_name=scenario, embedder=embedder, rng=0, retrieval_weights=weights)
    shown: list[tuple[str, str, str, tuple[str, ...], int]] = []
    _record(model, shown)
    model.run_until(model.start + timedelta(hours=hour))
    kinds = _kinds(model)
    model.close()
    tallies: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for kind, agent, other, memories, limit in shown:
        tally = tallies[kind]
        tally[0] += len(memories)
        about = [text for text in memories if involves(text, other)]
        tally[1] += len(about)
        tally[2] += sum(kinds[agent].get(text) not in (NodeKind.EVENT, None) for text in about)
        tally[3] += bool(memories) and involves(memories[0], other)
        tally[4] += len(memories) < limit
        tally[5] += 1
    return {
        kind: (t[1] / max(1, t[0]), t[2] / max(1, t[0]), t[3] / max(1, t[5]), t[4] / max(1, t[5]), t[5])
        for kind, t in tallies.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("town", nargs="?", default="n3", choices=("n3", "n25"))
    parser.add_argument("hour", nargs="?", type=int, default=12, help="run from midnight to this hour of day one")
    parser.add_argument("embedder", nargs="?", default="minilm", choices=("minilm", "hashing"))
    arguments = parser.parse_args()
    scenario = f"the_ville_{arguments.town}"
    print(f"{scenario} to {arguments.hour}:00, {arguments.embedder}")
    for weights in ("paper", "original"):
        started = time.perf_counter()
        figures = measure(scenario, arguments.hour, arguments.embedder, weights)
        for kind, (share, substantive, first, short, count) in sorted(figures.items()):
            print(
                f"  {weights:8s} {kind:8s} {count:4d} requests: involve {100 * share:3.0f}%, substantive "
                f"{100 * substantive:3.0f}%, first involves {100 * first:3.0f}%, with empty slots {100 * short:3.0f}%"
            )
        print(f"  ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
