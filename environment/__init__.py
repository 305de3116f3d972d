"""The world of the Ville: tile map, world tree, object states, paths and places in words.

This layer knows nothing of language models or agents' minds: it answers questions about space.
"""

__all__: list[str] = []
