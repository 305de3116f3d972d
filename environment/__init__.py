"""The world of the Ville: tile map, world tree, object states, paths, spatial memory and places in words.

This layer knows nothing of language models or agents' minds: it answers questions about space. Tiles are
(x, y) tuples; addresses are world-tree paths joined by ":" ("the Ville:Hobbs Cafe:cafe:piano").
"""

from environment.describe import describe_choices, describe_event, describe_place, describe_surroundings
from environment.errors import MapError, UnknownAddress, Unreachable
from environment.grid import make_grid
from environment.map_copies import copy_offset, copy_sector_name
from environment.map_writer import write_blocks, write_matrix
from environment.paths import PathFinder
from environment.spatial_memory import SpatialMemory
from environment.tile_map import RawMap
from environment.tiled import read_tiled, tiled_document
from environment.town_layout import Building, Room, lay_out
from environment.ville import Place, Tile, Ville, load_ville
from environment.world_state import Event, SeenEvent, WorldState, idle, in_state, unusual

__all__ = [
    "Building",
    "Event",
    "MapError",
    "PathFinder",
    "Place",
    "RawMap",
    "Room",
    "SeenEvent",
    "SpatialMemory",
    "Tile",
    "UnknownAddress",
    "Unreachable",
    "Ville",
    "WorldState",
    "copy_offset",
    "copy_sector_name",
    "describe_choices",
    "describe_event",
    "describe_place",
    "describe_surroundings",
    "idle",
    "in_state",
    "lay_out",
    "load_ville",
    "make_grid",
    "read_tiled",
    "tiled_document",
    "unusual",
    "write_blocks",
    "write_matrix",
]
