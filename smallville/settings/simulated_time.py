"""The type of a simulated time in every file a user writes (scenarios, grids, interventions, a run's config).

A pydantic datetime that refuses a time zone with the words the command-line flags use (option_types.naive_time):
one rule, the same at every door.
"""

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator

from smallville.settings.option_types import naive_time

SimulatedTime = Annotated[datetime, AfterValidator(naive_time)]

__all__ = ["SimulatedTime"]
