"""Command-line options of a new model: one flag per parameter of settings/parameters.py, nothing declared twice."""

import argparse

from smallville.settings.parameters import add_arguments, from_arguments

__all__ = ["add_model_options", "model_kwargs"]


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """The options of a new model: scenario, agents, model names, seed, ablations, every tunable, budget."""
    add_arguments(parser)


def model_kwargs(args: argparse.Namespace) -> dict:
    """The SmallvilleModel keyword arguments given on the command line."""
    return from_arguments(args)
