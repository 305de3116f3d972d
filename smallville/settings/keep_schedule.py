"""When a run keeps a checkpoint to fork from (`--keep-checkpoints every 1h|TIMES`), as a setting.

A setting of the run, read from the flag and from config.json: the standard library only, so the flag's validator
(option_types.keep_checkpoints) loads it at `--help`; the checkpoints themselves are kept by runs/kept_checkpoints.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["KeepSchedule"]


@dataclass(frozen=True)
class KeepSchedule:
    """When to keep a checkpoint: every so many simulated minutes from the start, or at given times (and the start).

    Attributes:
        every_minutes: The interval (None with `times`).
        times: The moments to keep (a moment between two steps is kept at the first step after it).
    """

    every_minutes: float | None = None
    times: tuple[datetime, ...] = ()

    @classmethod
    def from_config(cls, value: dict | None) -> "KeepSchedule | None":
        """The schedule as config.json holds it (None: keep none)."""
        if not value:
            return None
        return cls(value.get("every_minutes"), tuple(datetime.fromisoformat(t) for t in value.get("times", ())))

    def to_config(self) -> dict:
        """Plain data for config.json."""
        if self.every_minutes is not None:
            return {"every_minutes": self.every_minutes}
        return {"times": [time.isoformat() for time in self.times]}

    def next_at_or_after(self, start: datetime, now: datetime) -> datetime | None:
        """The first moment to keep at or after `now` (the start itself is always one); None when there is none."""
        if now <= start:
            return start
        if self.every_minutes is not None:
            every = timedelta(minutes=self.every_minutes)
            periods = -((start - now) // every)  # ceil((now - start) / every)
            return start + periods * every
        return min((time for time in self.times if time >= now), default=None)
