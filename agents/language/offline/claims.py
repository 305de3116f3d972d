"""How the offline judge reads a text: which of its clauses assert something, and whether they state a given fact.

Generic rules of English, never words of one scenario's facts: a text is cut into sentences and clauses; questions,
guesses and curiosity assert nothing; a clause that denies knowing, or whose negation covers the fact's words,
asserts nothing about it; idioms such as "can't wait for" are not denials. A fact statement ("Sam Moore is running
for mayor in the local election") is read as its subject (whom it is about), its core (what they do: "is running for
mayor") and its details (where, when). A text states the fact when one asserting clause refers to the subject (full
name, first name, a family name no other full name takes, or "I" when the speaker is the subject), the asserting
clauses hold at least half of the core's words (stemmed, or sharing a long prefix: "mayoral" is "mayor"), and no
detail contradicts the fact's (another day, month, number or named place). "X knows who Y is" facts need a clause
saying who Y is or that they met, not a mere sighting ("Y is having lunch").
"""

import re
from dataclasses import dataclass
from functools import cache

from agents.language.offline.details import details_of, is_header
from agents.language.offline.morphology import verb_after_i
from agents.language.offline.words import MONTHS as MONTH_NAMES
from agents.language.offline.words import STOP_WORDS
from agents.language.offline.words import WEEKDAYS as WEEKDAY_NAMES

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CLAUSE = re.compile(
    r"\s*[;:]\s+|\s+[-–—]\s+|,?\s+\b(?:but|though|although|yet|whereas)\b\s+|,\s+(?:and|so)\s+", re.IGNORECASE
)
# A sentence that asks, wonders or guesses asserts nothing.
_GUESS = re.compile(
    r"\b(?:maybe|perhaps|might|who knows|i guess|guessing|just a guess|not sure|unsure|couldn't say|can't say|"
    r"cannot say|can't tell|couldn't tell|i wonder|wondering|someday|one day|no idea)\b",
    re.IGNORECASE,
)
_ASKED = re.compile(r"\basked\b(?:\s+\w+){0,2}?\s+\b(?:if|whether|who|what|where|when|how|why|about)\b", re.IGNORECASE)
# Negations, and verbs that undo what follows them ("cancelled the meeting", "gave up his paper").
_NEGATOR = re.compile(
    r"\b(?:not|no|never|nothing|none|nobody|neither|nor|cannot)\b|n['’]t\b|"
    r"\b(?:cancel(?:l?ed|s)?|call(?:ed)? off|g[ai]ve(?:n)? up|turn(?:ed)? down|decided against|dropped|scrapped|"
    r"abandoned|broke up|rejected|refused)\b",
    re.IGNORECASE,
)
# Knowing verbs: a negated one denies knowledge ("I haven't heard", "I can't place him").
_KNOWING = re.compile(
    r"^(?:\w+\s+){0,3}?(?:know|knew|heard|hear|aware|sure|idea|clue|met|meet|place|recall|remember|follow|"
    r"rings?|spoken|spoke|talked|familiar)\b",
    re.IGNORECASE,
)
# Negated phrases that affirm: "can't wait for", "wouldn't miss", "couldn't be happier", "never stops".
_AFFIRMING = re.compile(
    r"\b(?:can['’]?t|cannot|couldn['’]t|won['’]t|wouldn['’]t|don['’]t want to|do not want to)\s+"
    r"(?:wait|believe|miss|be late|be (?:happier|prouder|more \w+))\b|\bnever stops?\b|\bno doubt\b",
    re.IGNORECASE,
)
# Where a negation's reach ends: a comma or a subordinate clause.
_SCOPE_END = re.compile(r",|\b(?:since|because|when|after|before|until|while|once|which|who|where)\b", re.IGNORECASE)
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
# Head words of place names, so "Hobbs Cafe" is not taken for a person.
_PLACE_WORDS = frozenset(
    {"cafe", "café", "park", "street", "road", "college", "university", "school", "library", "pub", "bar", "store",
     "shop", "market", "hall", "house", "church", "hospital", "station", "creek", "lake", "river", "hill", "square",
     "avenue", "lane", "club", "bank", "office", "center", "centre", "apartment", "apartments", "dorm", "inn",
     "crown", "day", "supply", "pharmacy", "city", "town", "village", "ville"}
)  # fmt: skip
WEEKDAYS = frozenset(WEEKDAY_NAMES.lower().split("|"))
MONTHS = frozenset(MONTH_NAMES.lower().split("|"))
_PRONOUNS = re.compile(r"\b(?:he|she|him|her|they|them|his|hers|we|us)\b|\b(?:he|she)['’]s\b", re.IGNORECASE)
_PLURAL = re.compile(r"\b(?:they|them|we|us)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|me|my|mine|we|our|i've|i'll|i'd)\b", re.IGNORECASE)
# Saying who someone is: "X is my/a/the ...", "X and I are", "we talked", "I know him", or a habit ("X runs the pub").
_IDENTIFIES = re.compile(
    r"\b(?:is|are|was|'s|’s)\s+(?:my|our|a|an|the|his|her|their|\w+['’]s)\b|\band i\b|\bi and\b|"
    r"\bwe(?:['’]ve)?\s+(?:\w+\s+)?(?:talk|chat|met|meet|go|went|are|were|spoke|had|have|often|always|know)|"
    r"\b(?:i|i've|i’ve|i have)\s+(?:\w+\s+)?(?:know|known|met|talked|chatted|spoken)\b|"
    r"\b(?:introduced|friends?|neighbou?rs?|classmates?|housemates?|colleagues?)\b",
    re.IGNORECASE,
)
# Kin and housemates named beside their relation: "his wife, Mei Lin", "and son, Eddy Lin", "Mei Lin, her son".
_KIN = (
    r"(?:my|his|her|their|our|and)\s+(?:\w+\s+){0,2}?(?:wife|husband|spouse|partner|son|daughter|child|mother|father|"
    r"mom|dad|parent|brother|sister|cousin|aunt|uncle|grandson|granddaughter|grandmother|grandfather|roommate|"
    r"housemate|boss)(?:\s+of\s+\d+\s+\w+)?"
)
# Stems shorter than this must match whole; longer words match on a shared prefix this long.
PREFIX = 5
# Share of the fact's core words an asserting text must hold.
CORE_SHARE = 0.5


def stem(word: str) -> str:
    """A light stem: lower case, possessive, plural and verb endings off ("readings" -> "read", "closes" -> "clos")."""
    word = word.lower().replace("’", "'").removesuffix("'s").rstrip("'")
    for endings in (("es", "s"), ("ing", "ed", "e")):
        for ending in endings:
            if word.endswith(ending) and not word.endswith("ss") and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
    return word


def same_word(a: str, b: str) -> bool:
    """Two stems name the same thing: equal, or both long and sharing a long prefix ("mayor", "mayoral")."""
    return a == b or (min(len(a), len(b)) >= PREFIX and a[:PREFIX] == b[:PREFIX])


def content_stems(text: str, *, numbers: bool = True) -> list[str]:
    """Stems of the words that carry content (stop words, ordinal endings and lone letters left out)."""
    words = [word for word in _WORD.findall(text) if word.lower().replace("’", "'") not in STOP_WORDS | _ORDINALS]
    return [stem(word) for word in words if (len(word) > 1 and not word.isdigit()) or (numbers and word.isdigit())]


_ORDINALS = frozenset({"st", "nd", "rd", "th"})


def person_names(text: str) -> list[str]:
    """Full names of people in a text: "Ryan Park" is one, "Hobbs Cafe" and "in Johnson Park" are places."""
    names = []
    for match in _NAME.finditer(text):
        before = text[: match.start()].split()[-1:]
        place = match.group().split()[-1].lower() in _PLACE_WORDS and (
            not before or before[0].lower() in _BEFORE_PLACES
        )
        if not place:
            names.append(match.group())
    return names


_BEFORE_PLACES = frozenset({"at", "in", "to", "from", "near", "of", "the", "by", "around", "into", "behind"})


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


_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")


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
        words=frozenset(stem(word) for word in _WORD.findall(statement)),
        has_places=bool(places),
        known=knows.group("known").strip() if knows else None,
    )


def _core_words(tokens: list[str]) -> list[str]:
    return [word for word in content_stems(" ".join(tokens), numbers=False) if word not in _AUXILIARIES]


def clauses(text: str) -> list[str]:
    """The asserting clauses of a text: questions, guesses, curiosity and denials of knowledge left out."""
    kept = []
    for raw_sentence in _SENTENCE.split(text.strip()):
        sentence = raw_sentence.strip()
        if not sentence or sentence.endswith("?") or _GUESS.search(sentence):
            continue
        for raw_clause in _CLAUSE.split(sentence):
            clause = raw_clause.strip(" ,.!;:")
            if clause and not _ASKED.search(clause) and not denies_knowing(clause):
                kept.append(clause)
    return kept


def denies_knowing(clause: str) -> bool:
    """A clause saying the speaker does not know ("I haven't heard", "no idea", "never met him")."""
    return any(_KNOWING.match(clause[negator.end() :].lstrip(" ,")) for negator in _NEGATOR.finditer(clause))


def negated_words(clause: str) -> str:
    """The part of a clause under a negation that is not an affirming idiom ("" when there is none)."""
    spans = [span.span() for span in _AFFIRMING.finditer(clause)]
    for negator in _NEGATOR.finditer(clause):
        if any(start <= negator.start() < end for start, end in spans):
            continue
        rest = clause[negator.end() :]
        end = _SCOPE_END.search(rest)
        return rest[: end.start()] if end else rest
    return ""


def _refers_to(person: str, text: str, speaker: str) -> bool:
    """Whether a text names a person: full or first name, a family name no other full name takes, or "I"."""
    first, *_, last = person.split()
    if re.search(rf"\b{re.escape(first)}\b", text):
        return True
    others = [name for name in person_names(text) if name.split()[-1] == last and name != person]
    if not others and re.search(rf"\b{re.escape(last)}(?:e?s)?\b", text):
        return True
    return speaker == person and bool(_FIRST_PERSON.search(text))


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
        return _says_who(fact.known, text, speaker, question)
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
        named = any(
            _refers_to(person, clause, "") for clause in (stating if spoken and person == speaker else asserted)
        )
        if not named and not any(_refers_to(person, clause, speaker) for clause in carrying):
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
    exempt = frozenset(stem(word) for word in _WORD.findall(f"{speaker} {question}"))
    return not any(_contradicts(fact, clause, exempt) for clause in carrying)


def _says_who(known: str, text: str, speaker: str, question: str) -> bool:
    """Whether a text says who the known person is to the speaker, or that they met; a sighting is not enough.

    "He", "she" or "them" stand for the person when the person was the last one named (in the question, when the
    text names nobody before).
    """
    if re.search(rf"\bconversation with {re.escape(known)}\b", text):
        return True
    name = re.escape(known)
    if re.search(rf"\b{_KIN},?\s+{name}\b|\b{name},\s+{_KIN}\b", text, re.IGNORECASE):
        return True
    last_named: list[str] = [known] if question and _refers_to(known, question, "") else []
    for sentence in _SENTENCE.split(text.strip()):
        guessing = sentence.strip().endswith("?") or _GUESS.search(sentence)
        for clause in _CLAUSE.split(sentence):
            named = person_names(clause) or ([known] if _refers_to(known, clause, "") else [])
            bound = last_named[-1:] + (last_named if _PLURAL.search(clause) else [])
            alone = not [name for name in named if name != known]
            refers = _refers_to(known, clause, speaker) or (
                alone and _PRONOUNS.search(clause) is not None and known in bound
            )
            if named:
                last_named = named
            if guessing or not refers or negated_words(clause) or denies_knowing(clause) or _ASKED.search(clause):
                continue
            if _IDENTIFIES.search(clause) or _habit(known, clause):
                return True
    return False


def _habit(person: str, clause: str) -> bool:
    """A habit said of the person ("Mei Lin teaches philosophy", "Arthur runs the bar"): a verb in the present.

    Knowing is not a habit: "John Lin knows of Tamara Taylor" says whom John knows, not who John is.
    """
    first = re.escape(person.split(maxsplit=1)[0])
    match = re.search(rf"\b{first}(?:\s+[A-Z][a-z]+)?(?:\s+and\s+[^,]+?)?\s+([a-z]\w*)", clause)
    if not match:
        return False
    verb = match.group(1).lower()
    return verb_after_i(verb) != verb and verb not in {"is", "has", "does", "knows"}
