"""Players: a person who joins the town, walks, is seen by the agents and talks with them turn by turn.

A player is one more person to the agents: an event on a tile that those within vision perceive and remember, and a
partner in a talk whose lines the agent answers with its own conversation code (agents/cognition/conversing.py). It
has no mind here: what it does comes from outside as timed interventions (join, move, say, leave), kept in the run's
timeline, so a run with a player replays and forks exactly.
"""

from smallville.players.places import PlaceError, earshot, find_place, tile_near, tile_of_place
from smallville.players.presence import Player, Players
from smallville.players.talks import (
    apply_player_intervention,
    check_player_intervention,
    end_due_talks,
    player_statuses,
)

__all__ = [
    "PlaceError",
    "Player",
    "Players",
    "apply_player_intervention",
    "check_player_intervention",
    "earshot",
    "end_due_talks",
    "find_place",
    "player_statuses",
    "tile_near",
    "tile_of_place",
]
