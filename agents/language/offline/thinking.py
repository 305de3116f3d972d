"""The offline mind's inner life: importance, reflection, the day's summary."""

import re
from collections import Counter
from datetime import timedelta

from agents.language.offline.news import ABOUT, news_in
from agents.language.offline.salience import importance_of
from agents.language.requests import (
    DaySummaryRequest,
    ImportanceRequest,
    InsightsRequest,
    ReflectionQuestionsRequest,
)

_NAME = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")
_WORD = re.compile(r"[a-z']+")
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "i",
        "you",
        "he",
        "she",
        "they",
        "it",
        "we",
        "my",
        "your",
        "his",
        "her",
        "their",
        "our",
        "what",
        "who",
        "whom",
        "when",
        "where",
        "why",
        "how",
        "do",
        "does",
        "did",
        "about",
        "this",
        "that",
        "these",
        "those",
        "me",
        "as",
        "by",
        "from",
    ]
)
# Appended plans are kept while the status stays under this length.
LONGEST_STATUS = 900
# Characters of a memory an insight or an interview answer quotes: insights cite insights, and quoting them whole
# made reflections grow exponentially (600,000 characters after two days of 25 agents).
LONGEST_QUOTE = 160
# "About Maria Lopez: " and its repetitions, the prefix of an earlier insight.
_ABOUT = re.compile(rf"^(?:{ABOUT}\s*)+")


def gist(memory: str) -> str:
    """A memory without the "About X:" prefixes of earlier insights, cut to LONGEST_QUOTE characters."""
    return _ABOUT.sub("", memory)[:LONGEST_QUOTE].rstrip()


def importance(request: ImportanceRequest, seed: int) -> dict:
    """Scores by the kind of event each memory describes."""
    del seed
    return {"scores": [importance_of(memory) for memory in request.memories]}


def questions(request: ReflectionQuestionsRequest, seed: int) -> dict:
    """Questions about the people named most often in the statements, then about what occupies the persona."""
    del seed
    statements = [gist(statement) for statement in request.statements]
    names = Counter(
        name for statement in statements for name in _NAME.findall(statement) if name != request.identity.name
    )
    me = request.identity.name
    asked = [f"What do I know about {name}, and what is my relationship with them?" for name, _ in names.most_common()]
    asked.append(f"What is {me} most focused on these days?")
    named = {word for name in [*names, me] for word in _words(name)}
    topics = Counter(word for statement in statements for word in _words(statement) - named if len(word) > 3)
    asked += [f'Why does "{topic}" keep coming up in {me}\'s days?' for topic, _ in topics.most_common()]
    asked += [f"What else has been on {me}'s mind? ({index})" for index in range(1, request.n + 1)]
    return {"questions": asked[: request.n]}


def insights(request: InsightsRequest, seed: int) -> dict:
    """For each question, insights grouping its memories that share the question's subject, each citing them."""
    del seed
    texts = dict(request.memories)
    found = []
    for index, (question, ids) in enumerate(request.questions, start=1):
        memories = [(node_id, texts[node_id]) for node_id in ids]
        for insight in _insights_on(question, memories, request.n):
            found.append({"question": index, **insight, "importance": importance_of(insight["insight"])})
    return {"insights": found}


def _insights_on(question: str, memories: list[tuple[int, str]], n: int) -> list[dict]:
    subject = next(iter(_NAME.findall(question)), None)
    keys = _words(question)
    related = [
        (node_id, text)
        for node_id, text in memories
        if (subject and subject in text) or (not subject and keys & _words(text))
    ] or memories[:3]
    found = []
    for start in range(0, min(len(related), 3 * n), 3):
        group = related[start : start + 3]
        about = subject or "my days"
        found.append(
            {
                "insight": f"About {about}: {_weightiest([text for _, text in group])}",
                "evidence": [node_id for node_id, _ in group],
            }
        )
    return found[:n]


def _weightiest(memories: list[str]) -> str:
    """The most important piece of news among memories (the first of the most important), as one sentence.

    A model states an insight in a sentence; the offline insight quoted two whole memories, which the next reflection
    and every prompt that retrieved it carried again.
    """
    pieces = [piece for memory in memories for piece in news_in(memory)] or [gist(memory) for memory in memories]
    return max(pieces, key=importance_of)


def day_summary(request: DaySummaryRequest, seed: int) -> dict:
    """The day's most important memories; tomorrow's status keeps what is set for tomorrow."""
    del seed
    ranked = sorted(request.memories, key=lambda memory: -importance_of(memory))
    summary = "Today: " + "; ".join(gist(memory) for memory in ranked[:3]) if ranked else "A quiet day."
    tomorrow = request.today + timedelta(days=1)
    day = rf"{tomorrow:%B} {tomorrow.day}(?:st|nd|rd|th)?\b"
    upcoming = [memory for memory in ranked if re.search(day, memory.replace("*", "")) or "tomorrow" in memory]
    currently = request.identity.currently
    for memory in upcoming[:2]:
        if memory not in currently and len(currently) + len(memory) < LONGEST_STATUS:
            currently = f"{currently} {memory.rstrip('.')}."
    return {"summary": summary, "currently": currently}


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - STOP_WORDS
