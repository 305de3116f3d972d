"""What any reader of the agents' text looks for: people's names, topic words, months and weekdays, sentences."""

import re

# A person's full name: two capitalized words ("Maria Lopez").
FULL_NAME = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")
# Words that say nothing of a text's topic.
STOP_WORDS = frozenset(
    ("a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "is", "are", "was", "were",
     "be", "been", "i", "you", "he", "she", "they", "it", "we", "my", "your", "his", "her", "their", "our", "what",
     "who", "whom", "when", "where", "why", "how", "do", "does", "did", "about", "this", "that", "these", "those",
     "me", "as", "by", "from")
)  # fmt: skip
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
WEEKDAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"


def sentences_of(text: str) -> list[str]:
    """The sentences of a persona's text, and the clauses a ";" parts (each a statement of its own)."""
    return [sentence.strip() for sentence in re.split(r"(?<=[.;])\s+", text) if sentence.strip()]


def content_words(text: str) -> set[str]:
    """The words of a text that carry its topic, lower case (stop words left out)."""
    return set(re.findall(r"[a-z']+", text.lower())) - STOP_WORDS
