"""Named conditions: sets of the model's switches, for `run.py batch --conditions` without a grid file.

The paper's ablations (section 6) remove the architecture's parts cumulatively: without reflection; without
reflection and planning; without observation, reflection and planning. The single-switch conditions are here too.
"""

CONDITIONS: dict[str, dict[str, object]] = {
    "full": {},
    "no_reflection": {"reflection": False},
    "no_planning": {"planning": False},
    "no_observation": {"observation": False},
    "no_reflection_planning": {"reflection": False, "planning": False},
    "no_observation_reflection_planning": {"observation": False, "reflection": False, "planning": False},
}

# The paper's four architectures, from the full one down (its human-crowdworker condition is not a simulation).
PAPER_LADDER = ("full", "no_reflection", "no_reflection_planning", "no_observation_reflection_planning")


def named_condition(name: str) -> dict[str, object]:
    """The switches of a named condition.

    Raises:
        KeyError: With the names to choose from, if there is no such condition.
    """
    if name not in CONDITIONS:
        raise KeyError(f"no condition named {name!r}; choose from: {', '.join(CONDITIONS)}")
    return dict(CONDITIONS[name])
