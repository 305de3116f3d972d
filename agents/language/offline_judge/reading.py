"""How the offline judge reads a sentence: its content words, the people it names, and whether it says who one is.

Generic rules of English, never words of one scenario's facts: a text is cut into sentences and clauses; questions,
guesses and curiosity assert nothing; a clause that denies knowing asserts nothing; idioms such as "can't wait for"
are not denials. A text says who a person is to the speaker when a clause says who they are or that the two met, not
a mere sighting ("Y is having lunch"). The fact checks read by these rules (claims.py); the offline mind's interview no
longer reads who is who (it restates what it holds), so they are the judge's own.
"""

import re

from agents.language.english.morphology import verb_after_i
from agents.language.english.words import STOP_WORDS

WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d+")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
CLAUSE = re.compile(
    r"\s*[;:]\s+|\s+[-–—]\s+|,?\s+\b(?:but|though|although|yet|whereas)\b\s+|,\s+(?:and|so)\s+", re.IGNORECASE
)
# A sentence that asks, wonders or guesses asserts nothing.
GUESS = re.compile(
    r"\b(?:maybe|perhaps|might|who knows|i guess|guessing|just a guess|not sure|unsure|couldn't say|can't say|"
    r"cannot say|can't tell|couldn't tell|i wonder|wondering|someday|one day|no idea)\b",
    re.IGNORECASE,
)
ASKED = re.compile(r"\basked\b(?:\s+\w+){0,2}?\s+\b(?:if|whether|who|what|where|when|how|why|about)\b", re.IGNORECASE)
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
# Head words of place names, so "Hobbs Cafe" is not taken for a person.
_PLACE_WORDS = frozenset(
    {"cafe", "café", "park", "street", "road", "college", "university", "school", "library", "pub", "bar", "store",
     "shop", "market", "hall", "house", "church", "hospital", "station", "creek", "lake", "river", "hill", "square",
     "avenue", "lane", "club", "bank", "office", "center", "centre", "apartment", "apartments", "dorm", "inn",
     "crown", "day", "supply", "pharmacy", "city", "town", "village", "ville"}
)  # fmt: skip
_BEFORE_PLACES = frozenset({"at", "in", "to", "from", "near", "of", "the", "by", "around", "into", "behind"})
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
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
    words = [word for word in WORD.findall(text) if word.lower().replace("’", "'") not in STOP_WORDS | _ORDINALS]
    return [stem(word) for word in words if (len(word) > 1 and not word.isdigit()) or (numbers and word.isdigit())]


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


def refers_to(person: str, text: str, speaker: str) -> bool:
    """Whether a text names a person: full or first name, a family name no other full name takes, or "I"."""
    first, *_, last = person.split()
    if re.search(rf"\b{re.escape(first)}\b", text):
        return True
    others = [name for name in person_names(text) if name.split()[-1] == last and name != person]
    if not others and re.search(rf"\b{re.escape(last)}(?:e?s)?\b", text):
        return True
    return speaker == person and bool(_FIRST_PERSON.search(text))


def says_who(known: str, text: str, speaker: str, question: str = "") -> bool:
    """Whether a text says who the known person is to the speaker, or that they met; a sighting is not enough.

    "He", "she" or "them" stand for the person when the person was the last one named (in the question, when the
    text names nobody before).
    """
    if re.search(rf"\bconversation with {re.escape(known)}\b", text):
        return True
    name = re.escape(known)
    if re.search(rf"\b{_KIN},?\s+{name}\b|\b{name},\s+{_KIN}\b", text, re.IGNORECASE):
        return True
    last_named: list[str] = [known] if question and refers_to(known, question, "") else []
    for sentence in SENTENCE.split(text.strip()):
        guessing = sentence.strip().endswith("?") or GUESS.search(sentence)
        for clause in CLAUSE.split(sentence):
            named = person_names(clause) or ([known] if refers_to(known, clause, "") else [])
            bound = last_named[-1:] + (last_named if _PLURAL.search(clause) else [])
            alone = not [name for name in named if name != known]
            refers = refers_to(known, clause, speaker) or (
                alone and _PRONOUNS.search(clause) is not None and known in bound
            )
            if named:
                last_named = named
            if guessing or not refers or negated_words(clause) or denies_knowing(clause) or ASKED.search(clause):
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
