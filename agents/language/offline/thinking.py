"""The offline mind's inner life: importance, reflection, the day's summary."""

import re
from collections import Counter
from contextlib import suppress
from datetime import date, datetime, timedelta

from agents.language.english.words import FULL_NAME, MONTHS, content_words
from agents.language.offline.news import ABOUT, news_in, sentences
from agents.language.offline.salience import importance_of
from agents.language.offline.voice import third_person
from agents.language.requests import (
    DaySummaryRequest,
    ImportanceRequest,
    InsightsRequest,
    ReflectionQuestionsRequest,
)
from agents.language.requests.reflecting import LONGEST_STATUS

# A date in text: "February 14" or "February 14th".
_MONTH_DAY = re.compile(rf"\b({MONTHS}) (\d{{1,2}})(?:st|nd|rd|th)?\b")
# Characters of a memory an insight or an interview answer quotes: insights cite insights, and quoting them whole
# made reflections grow exponentially (600,000 characters after two days of 25 agents).
LONGEST_QUOTE = 160
# "About Maria Lopez: " and its repetitions, the prefix of an earlier insight.
_ABOUT = re.compile(rf"^(?:{ABOUT}\s*)+")


def gist(memory: str) -> str:
    """A memory without the "About X:" prefixes of earlier insights, in whole clauses up to LONGEST_QUOTE characters."""
    text = _ABOUT.sub("", memory).strip()
    if len(text) <= LONGEST_QUOTE:
        return text
    clauses = re.split(r"(?<=[;.!?])\s+", text)  # whole clauses while they fit; the first always, however long
    kept = clauses[0]
    for clause in clauses[1:]:
        if len(kept) + 1 + len(clause) > LONGEST_QUOTE:
            break
        kept = f"{kept} {clause}"
    return kept.rstrip(" ;")


def importance(request: ImportanceRequest, seed: int) -> dict:
    """Scores by the kind of event each memory describes, and how close it is to the agent (salience.py)."""
    del seed
    return {"scores": [importance_of(memory, request.identity.describe()) for memory in request.memories]}


def questions(request: ReflectionQuestionsRequest, seed: int) -> dict:
    """Questions about the people named most often in the statements, then about what occupies the persona."""
    del seed
    statements = [gist(statement) for statement in request.statements]
    names = Counter(
        name for statement in statements for name in FULL_NAME.findall(statement) if name != request.identity.name
    )
    me = request.identity.name
    asked = [f"What do I know about {name}, and what is my relationship with them?" for name, _ in names.most_common()]
    asked.append(f"What is {me} most focused on these days?")
    named = {word for name in [*names, me] for word in content_words(name)}
    topics = Counter(word for statement in statements for word in content_words(statement) - named if len(word) > 3)
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
    subject = next(iter(FULL_NAME.findall(question)), None)
    keys = content_words(question)
    related = [
        (node_id, text)
        for node_id, text in memories
        if (subject and subject in text) or (not subject and keys & content_words(text))
    ] or memories[:3]
    groups = [related[start : start + 3] for start in range(0, min(len(related), 3 * n), 3)]
    return [
        {
            "insight": f"About {subject or 'my days'}: {_weightiest([text for _, text in group])}",
            "evidence": [node_id for node_id, _ in group],
        }
        for group in groups
    ]


def _weightiest(memories: list[str]) -> str:
    """The most important piece of news among memories (the first of the most important), as one sentence.

    A model states an insight in a sentence; the offline insight quoted two whole memories, which the next reflection
    and every prompt that retrieved it carried again.
    """
    pieces = [piece for memory in memories for piece in news_in(memory)] or [gist(memory) for memory in memories]
    return max(pieces, key=importance_of)


def day_summary(request: DaySummaryRequest, seed: int) -> dict:
    """The day's most important memories; tomorrow's status keeps what is set for tomorrow and drops what is past.

    What a memory sets for tomorrow names tomorrow's date or weekday, or says "tomorrow" on the day before (then the
    date is written in, so the plan finds it); it joins the status in the third person, its subject named, as the
    status speaks of the persona.
    """
    del seed
    me = request.identity.name
    texts = [text for _, text in request.memories]
    ranked = sorted(texts, key=lambda memory: -importance_of(memory))
    summary = "Today: " + "; ".join(gist(memory) for memory in ranked[:3]) if ranked else "A quiet day."
    tomorrow = request.today + timedelta(days=1)
    upcoming = [
        dated
        for when, text in request.memories
        for piece in news_in(text)
        if (dated := dated_for(third_person(piece, me), tomorrow, when.date()))
    ]
    kept = [sentence for sentence in sentences(request.identity.currently) if not _past(sentence, tomorrow)]
    currently = " ".join(kept) or request.identity.currently
    for piece in sorted(dict.fromkeys(upcoming), key=lambda piece: -importance_of(piece))[:2]:
        if piece.lower()[:60] not in currently.lower() and len(currently) + len(piece) < LONGEST_STATUS:
            currently = f"{currently} {piece.rstrip('.')}."
    return {"summary": summary, "currently": currently}


def dated_for(piece: str, day: date, said_on: date) -> str:
    """The piece if it is set for `day` (with "tomorrow" said the day before written as the date), else ""."""
    text = piece.replace("*", "")
    date_words = rf"\b{day:%B} {day.day}(?:st|nd|rd|th)?\b"
    if re.search(date_words, text):
        return text
    if said_on == day - timedelta(days=1) and re.search(r"\btomorrow\b", text, re.IGNORECASE):
        return re.sub(r"\btomorrow\b", f"on {day:%B} {day.day}", text, flags=re.IGNORECASE)
    if 0 < (day - said_on).days < 7 and re.search(rf"\b(?:on|this|next) {day:%A}\b", text, re.IGNORECASE):
        return text
    return ""


def _past(sentence: str, day: date) -> bool:
    """Whether a sentence of the status is set only for dates before `day` (it is no longer a plan)."""
    dates = []
    for month, number in _MONTH_DAY.findall(sentence.replace("*", "")):
        with suppress(ValueError):  # no such day ("February 30")
            dates.append(datetime.strptime(f"{month} {number} {day.year}", "%B %d %Y").date())
    return bool(dates) and max(dates) < day
