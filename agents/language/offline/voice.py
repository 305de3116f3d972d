"""Whose voice a sentence is in: the offline mind retells what others said in the third person.

"I'm planning a dinner at my place", kept word for word by a listener, would later be retold as the listener's own
plan: it keeps "Eddy Lin is planning a dinner at Eddy's place", and "you" (the listener) as its own "I". These are
rules of English grammar (pronouns and the verb after them), not of any story. The way back, one's own news in the
first person, is english/voice.py (the agent keeps whispers that way whichever model answers).
"""

import re

from agents.language.english.morphology import (
    agree_with_i,
    is_adverb,
    possessive,
    verb_after_name,
)

_WORD = re.compile(r"[A-Za-z']+|[^A-Za-z']+")
# Words after which a clause starts (its first pronoun is a subject: "and you like" retold is "and Latoya likes").
_CLAUSE_STARTS = ("and", "but", "so", "that", "which", "who", "when", "where", "while", "if", "because", "though")


def third_person(sentence: str, speaker: str, listener: str = "", *, kept_by_listener: bool = True) -> str:
    """The sentence as a listener keeps it: the speaker's "I" named, "you" (the listener) as the listener's own "I".

    "I'm planning a dinner at my place, you should come" said by Eddy Lin to Maria Lopez is kept by Maria as "Eddy Lin
    is planning a dinner at Eddy's place, I should come". The first "I" gets the full name, later ones the first name.
    Told by a third party (`kept_by_listener` False), "you" is the listener named: "..., Maria should come". "We" is
    "they": the speaker and the others it speaks for ("Maria Lopez and I are close, we study together" is "Maria Lopez
    and Eddy Lin are close, they study together").
    """
    first = speaker.split(maxsplit=1)[0]
    named = False
    tokens = _WORD.findall(sentence)
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        lower = token.lower()
        if token in ("I", "I'm", "I've", "I'll", "I'd"):
            compound = _compound_subject(out)
            out.append(first if named else speaker)
            named = True
            if token != "I":  # a contraction: "I'm" is "Eddy is"; in "Maria and I'm" the two "are"
                contraction = token[1:].lower()
                plural = {"'m": "are", "'ve": "have"}.get(contraction) if compound else None
                out.append(" " + (plural or verb_after_name(contraction)))
            elif not compound:
                index = _conjugate_after(tokens, index, out)
        elif lower in ("we", "us", "our", "ours"):  # the speaker and others, once the speaker is named
            out.append(_cap({"we": "they", "us": "them", "our": "their", "ours": "theirs"}[lower], token))
        elif lower in ("my", "mine"):
            out.append(_cap(possessive(first), token))
        elif lower in ("me", "myself"):
            out.append(first)
        elif listener and lower in ("you", "your", "yours", "yourself"):
            other = listener.split(maxsplit=1)[0]
            mine = {"you": "I", "your": "my", "yours": "mine", "yourself": "myself"}
            theirs = {"you": other, "your": possessive(other), "yours": possessive(other), "yourself": other}
            out.append(_cap((mine if kept_by_listener else theirs)[lower], token, keep_i=True))
            last = next((word.strip() for word in reversed(out[:-1]) if not word.isspace()), ".")
            if not kept_by_listener and lower == "you" and (last[-1:] in ".;:,!?" or last.lower() in _CLAUSE_STARTS):
                index = _conjugate_after(tokens, index, out)  # "you are" retold: "Latoya is", never "Latoya are"
        else:
            out.append(token)
        index += 1
    return agree_with_i("".join(out))


def _compound_subject(before: list[str]) -> bool:
    """Whether the words before an "I" make it part of a compound subject ("Maria Lopez and I are": the verb stays).

    "and I" after a name or a pronoun is one; after any other word ("the party, and I am") it starts a clause.
    """
    words = [token for token in before if not token.isspace()]
    if len(words) < 2 or words[-1].lower() not in ("and", "or"):
        return False
    joined = words[-2].strip(" ,")
    return joined[:1].isupper() or joined.lower() in ("you", "he", "she", "they", "we")


def _conjugate_after(tokens: list[str], index: int, out: list[str]) -> int:
    """Copy the words after an "I" up to its verb, in the third person; returns the index of the last word copied."""
    position = index + 1
    while position + 1 < len(tokens) and tokens[position].isspace():
        word = tokens[position + 1]
        lower = word.lower()
        if lower in ("and", "or"):  # "I and Maria Lopez are": a compound subject, its verb stays as it is
            return index
        out.append(tokens[position])
        if is_adverb(word):
            out.append(word)
            position += 2
            continue
        out.append({"were": "was", "weren't": "wasn't"}.get(lower) or verb_after_name(word))  # "you were": "Latoya was"
        return position + 1
    return index


def _cap(text: str, like: str, keep_i: bool = False) -> str:
    """`text` capitalized as `like` was (a sentence's first word)."""
    if like[:1].isupper() and not keep_i:
        return text[:1].upper() + text[1:]
    return text
