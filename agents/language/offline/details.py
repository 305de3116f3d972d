"""Times, dates and counts in a text, typed, so that a fact check compares like with like.

A reader does not reject "Summary of my Monday February 13: ... the party is on February 14th from 5pm" because
13 is not in the fact: the 13 dates the summary, and the clause that states the party gives its own day, which agrees.
So numbers are read by kind: clock times ("5pm", "5:00 pm", "17:00", the 5 of "5-7 pm"), days of a month
("February 14", "the 14th", "14 February") and plain counts ("3 children"); years say nothing either way. A clause
contradicts a fact only in a kind the fact gives and the clause gives too, with no value in common.
A header is a clause that only dates or times what follows ("Summary of my Monday February 13", "08:00 am - 09:00
am", "Lately"): it is the interview's frame, never a claim.
"""

import re
from dataclasses import dataclass

from agents.language.offline.words import MONTHS, WEEKDAYS

_MERIDIEM = r"(?:[ap]\.?m\.?)\b"
_RANGE = re.compile(rf"\b(\d{{1,2}})(?::\d{{2}})?\s*(?:[-–]|to)\s*(\d{{1,2}})(?::(\d{{2}}))?\s*{_MERIDIEM}", re.I)
_CLOCK = re.compile(rf"\b(\d{{1,2}})(?::(\d{{2}}))?\s*{_MERIDIEM}|\b(\d{{1,2}}):(\d{{2}})\b", re.I)
_DAY = re.compile(
    rf"\b(?:{MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS})\b|"
    r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
    re.I,
)
_NUMBER = re.compile(r"\b\d+\b")
# Words a header holds besides dates and times: it frames what follows, it claims nothing.
_FRAME_WORDS = frozenset(
    {"summary", "of", "my", "the", "today", "lately", "yesterday", "tomorrow", "plan", "plans", "schedule", "for",
     "on", "at", "from", "to", "until", "and", "day", "morning", "afternoon", "evening", "night", "am", "pm", "a", "m",
     "this", "that", "week", "note", "notes", "diary", "entry", "what", "i", "did", "remember", "recently"}
)  # fmt: skip
_TEMPORAL = re.compile(rf"\b(?:{MONTHS}|{WEEKDAYS})\b|\d+(?:st|nd|rd|th)?|[^\w\s]", re.I)


@dataclass(frozen=True)
class Details:
    """The typed numbers of a text: clock times (hour on a 12-hour dial, minute), days of a month, other counts."""

    clocks: frozenset[tuple[int, int]]
    days: frozenset[int]
    counts: frozenset[str]

    def conflicts_with(self, fact: "Details") -> bool:
        """In a kind both give, none of this text's values is the fact's (another time, day or count)."""
        return any(
            mine and theirs and not mine & theirs
            for mine, theirs in ((self.clocks, fact.clocks), (self.days, fact.days), (self.counts, fact.counts))
        )


def details_of(text: str) -> Details:
    """Clock times, days of a month and counts in a text; years (four digits) are none of them."""
    clocks: set[tuple[int, int]] = set()
    spans: list[tuple[int, int]] = []
    for match in _RANGE.finditer(text):  # "5-7 pm": the 5 is a clock time too
        clocks.add((int(match.group(1)) % 12, 0))
        spans.append(match.span(1))
    for match in _CLOCK.finditer(text):
        hour, minute = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        clocks.add((int(hour) % 12, int(minute or 0)))
        spans.append(match.span())
    days = set()
    for match in _DAY.finditer(text):
        days.add(int(next(group for group in match.groups() if group)))
        spans.append(match.span())
    counts = {
        match.group()
        for match in _NUMBER.finditer(text)
        if len(match.group()) < 4 and not any(start <= match.start() < end for start, end in spans)
    }
    return Details(frozenset(clocks), frozenset(days), frozenset(counts))


def is_header(clause: str) -> bool:
    """A clause that only dates or times what follows it ("Summary of my Monday February 13", "8:00 am - 9:00 am")."""
    if not _TEMPORAL.search(clause) and clause.strip().lower() not in {"lately", "today", "recently"}:
        return False
    words = _TEMPORAL.sub(" ", clause).lower().split()
    return all(word in _FRAME_WORDS for word in words)
