"""What every agent's mind shares: the gateway to models, the configuration, the map and its paths."""

from dataclasses import dataclass

from agents.config import MindConfig
from agents.language.gateway import Gateway
from environment import PathFinder, Ville


@dataclass(frozen=True)
class Mind:
    """The shared, read-only context of cognition (one per model, not per agent)."""

    gateway: Gateway
    config: MindConfig
    ville: Ville
    paths: PathFinder
