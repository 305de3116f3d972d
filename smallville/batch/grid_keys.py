"""SmallvilleModel's keyword arguments, read from its signature at run time, as a pydantic model.

A grid's parameters are the model's own keyword names (as Mesa's batch_run params are). Deriving them from the
signature instead of copying a list means a parameter added to, renamed in or removed from the model is at once
accepted, refused or reported by the grid, with the model's own type hints doing the validation.
"""

import inspect
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from smallville.model import SmallvilleModel

# Given by the grid's own fields, not as parameters: the seed by `seeds`, the scenario by `scenarios`.
GRID_OWNED = {"rng": "seeds", "scenario_name": "scenarios"}


@cache
def model_parameters() -> dict[str, tuple[Any, Any]]:
    """Name -> (type hint, default) of every keyword argument of SmallvilleModel.__init__."""
    parameters = {}
    # The signature SmallvilleModel declares (smallville/settings/parameters.py), annotations included.
    for name, parameter in inspect.signature(SmallvilleModel).parameters.items():
        if name == "seed_memories" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        default = ... if parameter.default is parameter.empty else parameter.default
        hint = Any if parameter.annotation is parameter.empty else parameter.annotation
        parameters[name] = (hint, default)
    return parameters


@cache
def parameters_model() -> type[BaseModel]:
    """A pydantic model of the grid-settable parameters: unknown names refused, values checked by their hints."""
    fields = {name: (hint, None) for name, (hint, _) in model_parameters().items() if name not in GRID_OWNED}
    return create_model(
        "ModelParameters", __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=True), **fields
    )


def parameter_names() -> list[str]:
    """The names a grid may set, in the signature's order."""
    return [name for name in model_parameters() if name not in GRID_OWNED]
