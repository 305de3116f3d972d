"""The range of every number a town takes: its lower and upper bounds, and why each bound is where it is.

One schema for every door. A flag, a grid's key, a scenario's field, a battery, a fork's change and a resumed run's
config.json all reach a number through `check_number` (option_types builds the flags' validators from it), so a
value is refused with the same words wherever it comes in. Every bound is one the simulation itself can honour: a
count of memories a prompt can carry, a duration within the longest run (MAX_DAYS), an importance on the paper's
1-10 scale. A number without an upper bound let a typo (`--collect-every 1e12`, `--plan-importance 1000`) run
silently as something else, or hang (a range of a billion seeds). Standard library only: `run.py --help` loads it.
"""

import argparse
import math
from dataclasses import dataclass

__all__ = ["MAX_DAYS", "RANGES", "Range", "check_number"]

MAX_DAYS = 365  # the longest run: far beyond any sensible one (the paper ran two days), close enough to refuse typos
DAY_MINUTES = 24 * 60
# Memories one prompt may show: 1,000 short memories are about 30k tokens, within every model's context window.
MAX_MEMORIES = 1000


@dataclass(frozen=True)
class Range:
    """A number's bounds (both inclusive unless `above` marks the lower one as excluded: more than `low`).

    Attributes:
        low: The smallest value (or the one every value must exceed, with `above`).
        high: The largest value.
        whole: A whole number (counts, steps, minutes), not any number.
        example: A value to show in a refusal.
        above: The lower bound is excluded (a timeout, a cost, a decay: more than 0).
    """

    low: float
    high: float
    whole: bool = True
    example: str = ""
    above: bool = False

    def span(self) -> str:
        """The range in words, as a refusal says it: "from 1 to 100", "more than 0 and at most 3600"."""
        kind = "a whole number" if self.whole else "a number"
        low, high = (f"{int(self.low)}", f"{int(self.high)}") if self.whole else (f"{self.low:g}", f"{self.high:g}")
        if self.above:
            return f"{kind} more than {low} and at most {high}"
        return f"{kind} from {low} to {high}"

    def holds(self, value: float) -> bool:
        """Whether `value` is within the range."""
        low_ok = value > self.low if self.above else value >= self.low
        return low_ok and value <= self.high


def _whole(low: int, high: int, example: int | str) -> Range:
    return Range(low, high, True, str(example))


def _more_than_zero(high: float, example: str) -> Range:
    return Range(0, high, False, example, above=True)


RANGES: dict[str, Range] = {
    # The town's own parameters.
    "rng": _whole(0, 2**63 - 1, 0),  # numpy takes seeds from 0 up to 2**63 - 1
    "agents": _whole(1, 100_000, 3),  # the scenario tells how many it has; this bounds the number itself
    "seconds_per_step": _whole(1, 3600, 10),  # the scenario file's own bound; the original's 10
    "collect_every": _whole(1, 8640, 6),  # at most one row a simulated day of the original's 10 s steps
    "thinking_steps": _whole(0, 360, 20),  # a thought longer than a simulated hour of 10 s steps is a typo
    "talk_thinking_steps": _whole(0, 360, 0),
    "max_in_flight": _whole(1, 1000, "25 (1 for a single-slot local server)"),
    "timeout": _more_than_zero(3600, "60"),  # a call that takes an hour is a dead server, not a slow one
    "max_calls": _whole(1, 10**9, 1000),  # a billion calls: far beyond any town's year (30 calls an agent-day)
    "max_cost": _more_than_zero(1_000_000, "2.50"),  # dollars
    # The mind's: counts of memories a prompt shows are bounded by what one prompt can carry.
    "recency_decay": Range(0, 1, False, "0.995", above=True),  # a factor per hour: 1 never forgets
    "reflection_threshold": _whole(1, 100_000, 150),  # importance 1-10 a memory: 10,000 memories at most
    "vision_radius": _whole(1, 1000, 8),  # tiles; the map's own size is checked with the scenario
    "attention_bandwidth": _whole(1, 100, 8),  # events attended to a step
    "retention": _whole(1, MAX_MEMORIES, 8),
    "retention_minutes": _whole(0, DAY_MINUTES, 60),
    "retrieval_count": _whole(1, MAX_MEMORIES, 30),
    "reflection_statements": _whole(1, MAX_MEMORIES, 100),
    "conversation_memories": _whole(1, MAX_MEMORIES, 15),
    "conversation_focal_lines": _whole(1, 100, 2),
    "conversation_focal_characters": _whole(1, 10_000, 300),
    "interview_memories": _whole(1, MAX_MEMORIES, 50),
    "reaction_memories": _whole(1, MAX_MEMORIES, 10),
    "max_conversation_lines": _whole(1, 100, 16),  # a talk of 100 lines is a novel, not a chat
    "chat_cooldown_seconds": _whole(1, 7 * 24 * 3600, 8000),  # a week
    "quiet_hour": _whole(0, 23, 23),  # an hour of the day
    "reaction_cooldown_minutes": _whole(0, DAY_MINUTES, 60),
    "pause_after_reaction_minutes": _whole(0, DAY_MINUTES, 15),
    "pause_after_talk_minutes": _whole(0, DAY_MINUTES, 60),
    "shortest_wait_minutes": _whole(0, DAY_MINUTES, 5),  # and at most longest_wait_minutes (validation.py)
    "longest_wait_minutes": _whole(0, DAY_MINUTES, 30),
    "importance_batch_size": _whole(1, MAX_MEMORIES, 40),
    "importance_batch_minutes": _whole(1, DAY_MINUTES, 240),
    "reflection_questions": _whole(1, 10, 3),  # the paper's 3
    "insights_per_question": _whole(1, 20, 5),  # the paper's 5
    "plan_importance": _whole(1, 10, 5),  # the paper's importance scale is 1 to 10
    "day_summary_memories": _whole(1, MAX_MEMORIES, 30),
    # The run's terms and the commands' own sizes.
    "days": _more_than_zero(MAX_DAYS, "1 or 0.5"),
    "checkpoint_minutes": _more_than_zero(MAX_DAYS * DAY_MINUTES, "60"),
    "repeats": _whole(1, 20, 2),  # rankings per question: each is a judge's call per question and agent
    "workers": _whole(1, 1024, 4),
    "seeds": _whole(1, 1000, 10),  # seeds in one batch: a typo's range of a billion seeds hung while it was listed
    "cells": _whole(1, 10_000, 100),  # cells in one batch (conditions x sweep x scenarios x seeds)
    "port": _whole(1, 65535, 8765),
    "max_fallback_share": Range(0, 1, False, "0.5"),
}


def check_number(name: str, text: str, label: str = "") -> float:
    """The number `text` within RANGES[name], or one line saying the range and an example.

    Args:
        name: The range's name.
        text: The value as typed (a flag's text; a file's value as a user would type it).
        label: How the refusal names the value (default: the value itself).

    Raises:
        argparse.ArgumentTypeError: If it is not a (whole, finite) number within the range.
    """
    bounds = RANGES[name]
    shown = label or text
    try:
        value = int(text) if bounds.whole else float(text)
    except ValueError:
        what = "a whole number" if bounds.whole else "a number"
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}; give e.g. {bounds.example}") from None
    if not bounds.whole and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; give e.g. {bounds.example}")
    if not bounds.holds(value):
        raise argparse.ArgumentTypeError(f"{shown} is out of range; give {bounds.span()}, e.g. {bounds.example}")
    return value
