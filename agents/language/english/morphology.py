"""The one grammar of the agents' text: a verb's person (after "I" or after a name) and a name's possessive.

Every sentence turned from one voice into another (the agent's whispers kept in its own voice, the offline mind's
retold news, the offline judge's reading of answers) inflects its verbs here, so the rules (and their exceptions)
live once: "is" after "I" is "am", "tries" is "try", "watches" is "watch", "closes" is "close" and
"buses" is "bus". A small rule set with a table of irregular forms, not a dictionary: it covers the persona data's
and its own sentences' verbs, and a word it does not know keeps a regular form.
"""

import re

# Third person singular -> the form after "I", for verbs the rules get wrong.
_AFTER_I = {"is": "am", "has": "have", "does": "do", "goes": "go", "doesn't": "don't", "hasn't": "haven't",
            "isn't": "am not", "wasn't": "wasn't", "buses": "bus", "focuses": "focus", "gases": "gas",
            "biases": "bias", "aches": "ache", "caches": "cache", "quizzes": "quiz"}  # fmt: skip
# The form after "I" (or a contraction of "I") -> the third person singular: the irregular forms above read back,
# and the forms only "I" and "you" take.
_AFTER_NAME = {mine: third for third, mine in _AFTER_I.items() if mine != third and " " not in mine} | {
    "are": "is", "'m": "is", "'ve": "has", "'ll": "will", "'d": "would", "aren't": "isn't"}  # fmt: skip
# Words after a subject that are the same in every person: modals and past tenses.
UNCHANGED = frozenset(
    (
        "can", "could", "will", "would", "should", "shall", "may", "might", "must", "had", "did", "was", "went",
        "saw", "met", "told", "said", "made", "got", "thought", "knew", "felt", "took", "came", "left", "heard",
        "found", "gave", "kept", "began", "brought", "bought", "wrote", "read", "ran", "sat", "stood",
    )
)  # fmt: skip
# Words ending in s after a name that are not its verb ("Eddy Lin as a friend", "Maria and Eddy's").
_NOT_VERBS = frozenset(("as", "us", "his", "its", "this", "yes", "plus", "towards", "always", "sometimes", "perhaps"))
# Adverbs between a subject and its verb ("I also work", "He mostly works"), besides any word in -ly.
ADVERBS = ("also", "always", "often", "still", "never", "just", "sometimes", "already", "usually", "even", "only")
ADVERB = rf"(?:\w+ly|{'|'.join(ADVERBS)})"
# Verbs in -ly, which are no adverbs ("I reply").
_LY_VERBS = frozenset(("apply", "reply", "rely", "supply", "comply", "fly", "rally", "tally", "bully"))
# Endings that take "es" in the third person ("watch" -> "watches"), and lose it after "I".
_SIBILANTS = ("s", "sh", "ch", "x", "z", "o")


def verb_after_i(word: str) -> str:
    """A third person's verb as it reads after "I": "is" -> "am", "tries" -> "try", "closes" -> "close".

    A word that is not a third person's present ("went", "miss", "focus") stays as it is.
    """
    lower = word.lower()
    if lower in _AFTER_I:
        return _AFTER_I[lower]
    if lower in UNCHANGED or not lower.endswith("s") or lower.endswith(("ss", "us", "is")):
        return word
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + "y"
    if lower.endswith(("sses", "shes", "ches", "xes", "zzes", "oes")):
        return word[:-2]
    return word[:-1]


def verb_after_name(word: str) -> str:
    """The verb after "I" (or a contraction of "I") as it reads after a name: "am" -> "is", "try" -> "tries".

    A name's own irregular verb stays ("Latoya is"); its verb after "I" agrees ("Latoya are" is "Latoya is").
    """
    lower = word.lower()
    if lower in _AFTER_NAME:
        return _AFTER_NAME[lower]
    if lower in _AFTER_I or lower in UNCHANGED or lower.endswith("ed") or not lower.isalpha():
        return word
    if lower.endswith(_SIBILANTS):
        return word + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def is_verb_after_name(word: str) -> bool:
    """Whether a word after a name is its verb: a third person's present ("knows", "hasn't"), a modal, a past tense."""
    lower = word.lower()
    if lower in _AFTER_I or lower in UNCHANGED:
        return True
    return lower.endswith("s") and not lower.endswith("ss") and len(lower) > 2 and lower not in _NOT_VERBS


def is_adverb(word: str) -> bool:
    """Whether a word between a subject and its verb is an adverb ("also", "mostly"), not the verb."""
    lower = word.lower()
    return lower in ADVERBS or (lower.endswith("ly") and lower not in _LY_VERBS)


def possessive(name: str) -> str:
    """A name's possessive: "Eddy" -> "Eddy's" (names ending in s too: "Klaus's")."""
    return f"{name}'s"


def agree_with_i(text: str) -> str:
    """The verb after an "I" that was a "you": "I are" is "I am", "I were" is "I was"."""
    return re.sub(r"\bI (are|were)\b", lambda match: "I am" if match.group(1) == "are" else "I was", text)
