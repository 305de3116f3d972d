"""How the offline judge reads a text: which of its clauses assert something, and whether they state a given fact.

Generic rules of English, never words of one scenario's facts: a text is cut into sentences and clauses; questions,
guesses and curiosity assert nothing; a clause that denies knowing, or whose negation covers the fact's words,
asserts nothing about it; idioms such as "can't wait for" are not denials. A fact statement ("Sam Moore is running
for mayor in the local election") is read as its subject (whom it is about), its core (what they do: "is running for
mayor") and its details (where, when). A text states the fact when one asserting clause refers to the subject (full
name, first name, a family name no other full name takes, or "I" when the speaker is the subject), the asserting
clauses hold at least half of the core's words (stemmed, or sharing a long prefix: "mayoral" is "mayor"), and no
detail contradicts the fact's (another day, month, number or named place). "X knows who Y is" facts need a clause
saying who Y is or that they met, not a mere sighting ("Y is having lunch"). The words, clauses and who-is-who are
read by reading.py.
"""

import re
from dataclasses import dataclass
from functools import cache

from agents.language.english.words import MONTHS as MONTH_NAMES
from agents.language.english.words import WEEKDAYS as WEEKDAY_NAMES
from agents.language.offline_judge.details import details_of, is_header
from agents.language.offline_judge.reading import (
    ASKED,
    CLAUSE,
    GUESS,
    SENTENCE,
    WORD,
    content_stems,
    denies_knowing,
    negated_words,
    person_names,
    refers_to,
    same_word,
    says_who,
    stem,
)

# Reporting frames: the names in them are sources of the claim, not parts of it.
_REPORTING = re.compile(
    r"^(?P<frame>.*?\b(?:said|says|told|tells|mentioned|mentions|announced|announces|explained|wrote|showed)\b"
    r"(?:\s+(?:me|us|him|her|them))?(?:\s+that)?)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_KNOWS_WHO = re.compile(r"^(?P<knower>.+?) knows who (?P<known>.+?) is\.?$")
# Words that end a subject (the fact's first verb); the true auxiliaries among them carry no content.
_VERB_MARKERS = frozenset({"is", "are", "was", "were", "has", "have", "had", "will", "got", "won", "lost", "knows"})
_AUXILIARIES = frozenset({"is", "are", "was", "were", "has", "have", "had", "will"})
# Where a fact's details (place, time) start, once its core holds two words; "on" only before a name or a number.
_DETAIL_START = frozenset({"at", "in", "near", "from", "next", "last", "this", "during", "until", "every", "by"})
WEEKDAYS = frozenset(WEEKDAY_NAMES.lower().split("|"))
MONTHS = frozenset(MONTH_NAMES.lower().split("|"))
# Share of the fact's core words an asserting text must hold.
CORE_SHARE = 0.5


@dataclass(frozen=True)
class Fact:
    """A fact statement read as subject, core and details (see the module docstring)."""

    statement: str
    people: tuple[str, ...]
    subject_words: tuple[str, ...]
    core: tuple[str, ...]
    details: tuple[str, ...]
    numbers: frozenset[str]
    weekdays: frozenset[str]
    months: frozenset[str]
    words: frozenset[str]
    has_places: bool
    known: str | None = None


@cache
def read_fact(statement: str) -> Fact:
    """Split a fact statement into its parts."""
    statement = statement.strip().rstrip(".")
    tokens = statement.split()
    knows = _KNOWS_WHO.match(statement)
    verb = next((i for i, token in enumerate(tokens) if i and token.lower() in _VERB_MARKERS), None)
    if verb is None:
        verb = next((i for i, token in enumerate(tokens) if i and token[0].islower() and token != "and"), 1)
    subject = " ".join(tokens[:verb])
    people = tuple(person_names(subject))
    core_end = len(tokens)
    for index in range(verb + 1, len(tokens)):
        word, following = tokens[index].lower(), tokens[index + 1] if index + 1 < len(tokens) else ""
        starts = word in _DETAIL_START or (word == "on" and (following[:1].isupper() or following[:1].isdigit()))
        if starts and len(_core_words(tokens[verb:index])) >= 2:
            core_end = index
            break
    places = [word for word in tokens[verb:] if word[:1].isupper() and stem(word) not in WEEKDAYS | MONTHS]
    lower = statement.lower()
    return Fact(
        statement=statement,
        people=people,
        subject_words=tuple(content_stems(subject, numbers=False)) if not people else (),
        core=tuple(dict.fromkeys(_core_words(tokens[verb:core_end]))),
        details=tuple(dict.fromkeys(content_stems(" ".join(tokens[core_end:])))),
        numbers=frozenset(re.findall(r"\d+", statement)),
        weekdays=frozenset(day for day in WEEKDAYS if re.search(rf"\b{day}", lower)),
        months=frozenset(month for month in MONTHS if re.search(rf"\b{month}\b", lower)),
        words=frozenset(stem(word) for word in WORD.findall(statement)),
        has_places=bool(places),
        known=knows.group("known").strip() if knows else None,
    )


def _core_words(tokens: list[str]) -> list[str]:
    return [word for word in content_stems(" ".join(tokens), numbers=False) if word not in _AUXILIARIES]


def clauses(text: str) -> list[str]:
    """The asserting clauses of a text: questions, guesses, curiosity and denials of knowledge left out."""
    kept = []
    for raw_sentence in SENTENCE.split(text.strip()):
        sentence = raw_sentence.strip()
        if not sentence or sentence.endswith("?") or GUESS.search(sentence):
            continue
        for raw_clause in CLAUSE.split(sentence):
            clause = raw_clause.strip(" ,.!;:")
            if clause and not ASKED.search(clause) and not denies_knowing(clause):
                kept.append(clause)
    return kept


_PREPOSITION = re.compile(r"\b(?:at|in|to|from|near|on|of)\s+(?:the\s+)?([A-Z][\w'’]*)")


def _contradicts(fact: Fact, clause: str, exempt: frozenset[str]) -> bool:
    """Another day, month, time, count or named place than the fact's, in a clause that states it.

    Days, months, times and counts are compared only in a clause holding a word of the fact's core (its header, or a
    plan's time in the same answer, is about something else: details.py); named places in any clause that carries
    a word of the fact.
    """
    frame = _REPORTING.match(clause)
    claim = frame.group("rest") if frame else clause
    lower = claim.lower()
    if is_header(claim):
        return False
    if not any(same_word(word, core) for word in content_stems(claim) for core in fact.core):
        return _wrong_place(fact, claim, exempt)
    if fact.weekdays and any(re.search(rf"\b{day}", lower) for day in WEEKDAYS - fact.weekdays):
        return True
    if fact.months and any(re.search(rf"\b{month}\b", lower) for month in MONTHS - fact.months):
        return True
    if fact.numbers and details_of(claim).conflicts_with(details_of(fact.statement)):
        return True
    return _wrong_place(fact, claim, exempt)


def _wrong_place(fact: Fact, claim: str, exempt: frozenset[str]) -> bool:
    """A named place ("at the Rose and Crown Pub") the fact does not name."""
    if fact.has_places:
        for match in _PREPOSITION.finditer(claim):
            key = stem(match.group(1))
            if key in WEEKDAYS or key in MONTHS or match.group(1).lower() in WEEKDAYS | MONTHS:
                continue
            if not any(same_word(key, known) for known in fact.words | exempt):
                return True
    return False


def states(fact_statement: str, text: str, *, speaker: str = "", question: str = "", spoken: bool = False) -> bool:
    """Whether a text (an answer, or a memory) states the fact, by the rules of the module docstring.

    A `spoken` text is the speaker's own answer: a fact about the speaker is said in the first person, or by its
    name in a clause that states the fact's core ("Latoya Williams is holding a bake sale", as its memory put it);
    its name elsewhere is a memory it quotes ("Sam Moore and Jennifer Moore talked" is not Jennifer saying where
    she was). A memory may name its holder.
    """
    fact = read_fact(fact_statement)
    if fact.known is not None:
        return says_who(fact.known, text, speaker, question)
    asserted = []
    for clause in clauses(text):
        negated = content_stems(negated_words(clause))
        if any(same_word(word, core) for word in negated for core in fact.core):
            continue
        asserted.append(clause)
    if not asserted:
        return False
    said = content_stems(" ".join(asserted))
    parts = fact.core + fact.details
    carrying = [clause for clause in asserted if any(same_word(p, w) for p in parts for w in content_stems(clause))]
    # The speaker may name itself in the third person only in a clause that says the fact's core (the source telling
    # its own news as its memory put it); elsewhere its name is a memory it quotes ("Sam and Jennifer talked").
    stating = [clause for clause in carrying if any(same_word(c, w) for c in fact.core for w in content_stems(clause))]
    for person in fact.people:  # by name in any clause; as "I" only in one that says something of the fact
        named = any(refers_to(person, clause, "") for clause in (stating if spoken and person == speaker else asserted))
        if not named and not any(refers_to(person, clause, speaker) for clause in carrying):
            return False
    if fact.subject_words and not any(same_word(word, mine) for word in said for mine in fact.subject_words):
        return False
    held_core = [core for core in fact.core if any(same_word(core, word) for word in said)]
    held_details = [detail for detail in fact.details if any(same_word(detail, word) for word in said)]
    whole = (len(held_core) + len(held_details)) / max(1, len(fact.core) + len(fact.details))
    # In a core of three words or more, the verb alone ("lost") does not say what the fact is about.
    what = [word for word in held_core if word != fact.core[0]] if len(fact.core) > 2 else held_core
    if not what or (len(held_core) < CORE_SHARE * len(fact.core) and whole < CORE_SHARE):
        return False
    exempt = frozenset(stem(word) for word in WORD.findall(f"{speaker} {question}"))
    return not any(_contradicts(fact, clause, exempt) for clause in carrying)
