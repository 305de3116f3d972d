"""The steps of an agent's cognition, each a small module: plan, act, perceive, react, converse, reflect.

Each function takes only what it reads and an `ask` callable that sends one typed request through the gateway. The
face for the town above: an interview of an agent (the paper's evaluation asks each agent questions), an answer
from given memories, `together`, which runs a step's requests concurrently, and a talk's summary (a talk with a
player, smallville/players/, ends from outside the agent's own thinking).
"""

from agents.cognition.asking import together
from agents.cognition.conversing import summarize as summarize_conversation
from agents.cognition.interviewing import Recollection, answer_from, answers_from, interview

__all__ = ["Recollection", "answer_from", "answers_from", "interview", "summarize_conversation", "together"]
