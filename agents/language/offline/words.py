"""What the offline mind reads in text: clock times, hours of the lifestyle, kinds of activity, a stable hash."""

import hashlib
import re

_TIME = r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?"


def stable_fraction(*parts: object) -> float:
    """A number in [0, 1) from the parts, the same in every process (never Python's salted hash())."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2**64


def hour_of(number: str, minutes: str | None, meridiem: str | None) -> float:
    """A clock hour as a number: ("7", None, "pm") is 19.0, ("17", "30", "pm") is 17.5 (the data has "17:30pm")."""
    hour = int(number) % 24
    if meridiem == "pm" and hour < 12:
        hour += 12
    if meridiem == "am" and hour == 12:
        hour = 0
    return hour + (int(minutes) / 60 if minutes else 0)


def lifestyle_hour(lifestyle: str, verb: str, default: float) -> float:
    """The hour after a phrase of the lifestyle ("awakes up around 6am"; "midnight" is 0)."""
    text = lifestyle.lower()
    match = re.search(verb + r"\s+around\s+(midnight|noon|" + _TIME + ")", text)
    if not match:
        return default
    if match.group(1) == "midnight":
        return 0.0
    if match.group(1) == "noon":
        return 12.0
    return hour_of(match.group(2), match.group(3), match.group(4))


def times_in(text: str) -> list[float]:
    """Every clock time written with am/pm in a text, in order."""
    return [hour_of(h, m, ap) for h, m, ap in re.findall(r"\b" + _TIME, text.lower()) if ap]


EMOJI_WORDS = (
    ("💤", ("sleep", "asleep", "bed", "nap")),
    ("🎉", ("party", "celebrat", "festival", "concert", "gathering")),
    ("💬", ("talk", "chat", "convers", "greet")),
    ("☕", ("coffee", "cafe", "café")),
    ("🍳", ("breakfast", "cook", "lunch", "dinner", "eat", "meal", "snack")),
    ("🚿", ("shower", "bath", "brush", "wash", "toilet", "dress", "routine", "ready")),
    ("📚", ("study", "class", "library", "read", "homework", "lecture", "research")),
    ("✍", ("writ", "poem", "note", "journal")),
    ("🎨", ("paint", "draw", "art", "sketch", "animat")),
    ("🎵", ("music", "piano", "compos", "song", "guitar")),
    ("💻", ("computer", "code", "program", "software", "stream", "gaming", "email")),
    ("🏃", ("run", "exercise", "workout", "jog", "gym")),
    ("🌳", ("park", "walk", "garden")),
    ("🍺", ("pub", "bar", "beer", "drink")),
    ("🛒", ("shop", "grocer", "store", "buy", "pharmacy")),
    ("👩‍🏫", ("teach",)),
)


def emoji_for(action: str) -> str:
    """A pictogram for an action, from its words."""
    lower = action.lower()
    return next((emoji for emoji, words in EMOJI_WORDS if any(word in lower for word in words)), "🙂")
