"""What the DataCollector records: the town's clock, costs and social metrics, and each agent's place and action.

An agent's action is read from its public face (SmallvilleModel.statuses, taken at each collection): while a
thought is in flight its own records may be half-updated, and a row must not depend on how far the thought had got.
"""

from functools import partial

from mesa import DataCollector

from smallville.scenarios.scenario import TrackedFact


def _time(model) -> str:
    return model.now.isoformat()


def _awake(model) -> int:
    return sum(not status.sleeping for status in model.statuses.values())


def _calls(model) -> int:
    return model.gateway.ledger.totals().calls


def _tokens(model) -> int:
    totals = model.gateway.ledger.totals()
    return totals.prompt_tokens + totals.completion_tokens


def _cost(model) -> float:
    return model.gateway.ledger.totals().cost


def _talking(model) -> int:
    return 2 * len(model.conversations)


def _density(model) -> float:
    return model.social.density()


def _aware(fact_id: str, model) -> float:
    return model.social.aware_share(fact_id)


def _attendees(model) -> int:
    return len(model.social.attendees)


def _knows_since(fact_id: str, agent) -> str:
    awareness = agent.model.social.awareness[fact_id].get(agent.name)
    return awareness.since.isoformat() if awareness else ""


def _knows_from(fact_id: str, agent) -> str:
    awareness = agent.model.social.awareness[fact_id].get(agent.name)
    return (awareness.source or "") if awareness else ""


def make_datacollector(facts: list[TrackedFact]) -> DataCollector:
    """The model's DataCollector: one row per collection, agents keyed by Mesa's time.

    Per tracked fact: the share of agents aware (`aware_<id>`), and per agent since when it knows (`knows_<id>`,
    "" if not) and from whom (`from_<id>`, "" for a source or an agent who saw it itself).
    """
    fact_reporters = {f"aware_{fact.id}": partial(_aware, fact.id) for fact in facts}
    fact_agent_reporters = {}
    for fact in facts:
        fact_agent_reporters[f"knows_{fact.id}"] = partial(_knows_since, fact.id)
        fact_agent_reporters[f"from_{fact.id}"] = partial(_knows_from, fact.id)
    return DataCollector(
        model_reporters={
            "time": _time,
            "awake": _awake,
            "talking": _talking,
            "model_calls": _calls,
            "tokens": _tokens,
            "cost": _cost,
            "density": _density,
            "attendees": _attendees,
            **fact_reporters,
        },
        agent_reporters={
            **fact_agent_reporters,
            "name": "name",
            "x": lambda agent: agent.tile[0],
            "y": lambda agent: agent.tile[1],
            "action": lambda agent: agent.model.statuses[agent.name].activity,
            "address": lambda agent: agent.model.statuses[agent.name].address,
            "emoji": lambda agent: agent.model.statuses[agent.name].emoji,
        },
    )
