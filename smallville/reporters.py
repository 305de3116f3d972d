"""What the DataCollector records: the town's clock and costs, and each agent's place and action."""

from mesa import DataCollector


def _time(model) -> str:
    return model.now.isoformat()


def _awake(model) -> int:
    return sum(not agent.sleeping for agent in model.people)


def _calls(model) -> int:
    return model.gateway.ledger.totals().calls


def _tokens(model) -> int:
    totals = model.gateway.ledger.totals()
    return totals.prompt_tokens + totals.completion_tokens


def _cost(model) -> float:
    return model.gateway.ledger.totals().cost


def _talking(model) -> int:
    return 2 * len(model.conversations)


def make_datacollector() -> DataCollector:
    """The model's DataCollector: one row per collection, agents keyed by Mesa's time."""
    return DataCollector(
        model_reporters={
            "time": _time,
            "awake": _awake,
            "talking": _talking,
            "model_calls": _calls,
            "tokens": _tokens,
            "cost": _cost,
        },
        agent_reporters={
            "name": "name",
            "x": lambda agent: agent.tile[0],
            "y": lambda agent: agent.tile[1],
            "action": lambda agent: agent.action.description if agent.action else "",
            "address": lambda agent: agent.action.address if agent.action else "",
            "emoji": lambda agent: agent.action.emoji if agent.action else "",
        },
    )
