"""A plain mesa-llm model whose LLMAgents remember with our memory stream (the paper's retrieval).

mesa-llm's own memories keep recent entries and rank old ones without relevance; swapping in agents.StreamMemory
gives any LLMAgent the paper's retrieval: recency, relevance to what it is deciding, and importance. Each agent here
is a genuine mesa_llm LLMAgent (its __init__ runs, its ModuleLLM and ReAct reasoning are mesa-llm's own); only its
`memory` is replaced.

Run it offline (the agents observe, talk through mesa-llm's send_message, and recall; no model is called):

    .venv/bin/python examples/mesa_llm_memory.py

Or let each agent also plan one ReAct step with a real model through mesa-llm, from a prompt led by its relevant
memories:

    .venv/bin/python examples/mesa_llm_memory.py --llm ollama_chat/llama3.1 --api-base http://localhost:11434
"""

import argparse
import logging
import os
from datetime import datetime, timedelta

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before mesa-llm imports litellm

import mesa
from mesa_llm.llm_agent import LLMAgent
from mesa_llm.reasoning.react import ReActReasoning

from agents import StreamMemory
from memory import HashingEmbedder, MemoryStream

START = datetime(2023, 2, 13, 8, 0)
# What each villager notices, one a step, in turn.
HAPPENINGS = [
    "the cafe is serving breakfast",
    "the library opens early today",
    "the town council announces an election for mayor next month",
    "the park fountain is being repaired",
    "a new bakery opens on the main street",
    "the bus to the city is late again",
]


class Villager(LLMAgent):
    """A mesa-llm LLMAgent that notices the town, talks to its neighbour, and remembers with the memory stream."""

    def __init__(self, model: "Village", name: str, llm_model: str, api_base: str | None):
        super().__init__(
            model,
            reasoning=ReActReasoning,
            llm_model=llm_model,
            system_prompt=f"You are {name}, who lives in a small town.",
            api_base=api_base,
        )
        self.name = name
        self.memory = StreamMemory(agent=self, stream=MemoryStream(dim=384), embedder=HashingEmbedder())

    def step(self) -> None:
        """Notice something, and every third step tell the neighbour about it."""
        seen = HAPPENINGS[(self.model.steps + self.unique_id) % len(HAPPENINGS)]
        self.memory.add_to_memory("observation", {"text": seen, "importance": 8 if "election" in seen else 3})
        if self.model.steps % 3 == 0:
            neighbour = self.model.neighbour_of(self)
            self.send_message(f"Did you hear? {seen}", [neighbour])

    def decide(self, question: str) -> str:
        """What the agent would consider for a decision: its memories led by the ones relevant to `question`."""
        self.memory.focus(question)
        if self.model.llm_model is None:
            return self.memory.get_prompt_ready()
        plan = self.reasoning.plan(obs=self.generate_obs(), prompt=question)
        return str(plan)


class Village(mesa.Model):
    """A few villagers, one step a simulated ten minutes."""

    def __init__(self, names=("Ada", "Ben", "Cleo"), llm: str | None = None, api_base: str | None = None, rng=0):
        super().__init__(rng=rng)
        self.llm_model = llm
        # mesa-llm's ModuleLLM needs some provider name at construction; offline, nothing is ever called.
        for name in names:
            Villager(self, name, llm or "ollama_chat/unused-offline", api_base)

    @property
    def now(self) -> datetime:
        """The simulated time StreamMemory stamps memories with."""
        return START + timedelta(minutes=10 * self.steps)

    def neighbour_of(self, agent: Villager) -> Villager:
        """The next villager round the circle."""
        people = list(self.agents)
        return people[(people.index(agent) + 1) % len(people)]

    def step(self) -> None:
        """Every villager acts once, in a random order."""
        self.agents.shuffle_do("step")


def main(argv=None) -> dict[str, str]:
    """Run the village for a few steps; returns what each villager recalls about the election."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--llm", default=None, help="a litellm model for one ReAct step per villager (optional)")
    parser.add_argument("--api-base", default=None)
    args = parser.parse_args(argv)
    if args.llm is None:  # mesa-llm warns about the placeholder model name it is given offline
        logging.getLogger("mesa_llm.module_llm").setLevel(logging.ERROR)
    village = Village(llm=args.llm, api_base=args.api_base)
    for _ in range(args.steps):
        village.step()
    return {agent.name: agent.decide("Should I vote in the election for mayor?") for agent in village.agents}


if __name__ == "__main__":
    for name, considered in main().items():
        print(f"--- {name}\n{considered}")
