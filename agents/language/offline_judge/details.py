"""Times, days and counts in a text, by kind, so a fact check compares like with like (a reader's way).

"Summary of my Monday February 13: ... the party is on February 14th from 5pm" does not deny a party on the 14th:
the 13 dates the summary. Clock times ("5pm", "17:00", the 5 of "5-7 pm"), days of a month ("February 14", "the
14th") and counts ("3 children") are read apart, years never; a clause contradicts a fact only in a kind both give,
with no value in common. A header only dates or times what follows ("Summary of my Monday February 13", "Lately").
"""

import re
from dataclasses import dataclass

from agents.language.english.words import MONTHS, WEEKDAYS

_AMPM = r"(?:[ap]\.?m\.?)\b"
_RANGE = re.compile(rf"\b(\d{{1,2}})(?::\d{{2}})?\s*(?:[-–]|to)\s*\d{{1,2}}(?::\d{{2}})?\s*{_AMPM}", re.I)
_CLOCK = re.compile(rf"\b(\d{{1,2}})(?::(\d{{2}}))?\s*{_AMPM}|\b(\d{{1,2}}):(\d{{2}})\b", re.I)
_DAY = re.compile(rf"\b(?:{MONTHS})\.?\s+(\d{{1,2}})|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS})\b|"
                  r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)  # fmt: skip
_FRAME = frozenset(
    ("summary", "of", "my", "the", "today", "lately", "yesterday", "tomorrow", "recently", "plan", "plans", "schedule",
     "for", "on", "at", "from", "to", "until", "and", "day", "morning", "afternoon", "evening", "night", "am", "pm",
     "a", "m", "this", "week")
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
        pairs = ((self.clocks, fact.clocks), (self.days, fact.days), (self.counts, fact.counts))
        return any(mine and theirs and not mine & theirs for mine, theirs in pairs)


def details_of(text: str) -> Details:
    """Clock times, days of a month and counts in a text; years (four digits) are none of them."""
    ranges, clocks, days = list(_RANGE.finditer(text)), list(_CLOCK.finditer(text)), list(_DAY.finditer(text))
    spans = [match.span(1) for match in ranges] + [match.span() for match in clocks + days]
    hours = {(int(match.group(1)) % 12, 0) for match in ranges} | {
        (int(match.group(1) or match.group(3)) % 12, int(match.group(2) or match.group(4) or 0)) for match in clocks
    }
    counts = {match.group() for match in re.finditer(r"\b\d{1,3}\b", text)
              if not any(start <= match.start() < end for start, end in spans)}  # fmt: skip
    return Details(frozenset(hours), frozenset(int(next(filter(None, m.groups()))) for m in days), frozenset(counts))


def is_header(clause: str) -> bool:
    """A clause that only dates or times what follows it ("Summary of my Monday February 13", "Lately")."""
    words = _TEMPORAL.sub(" ", clause).lower().split()
    return all(word in _FRAME for word in words) and (bool(_TEMPORAL.search(clause)) or len(words) == 1)
