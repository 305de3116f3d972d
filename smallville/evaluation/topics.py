"""What a fact is about, as a noun phrase a question can hold: "a bake sale", "a fire at the Oak Hill College library".

The battery asks of a fact it has no question for "Have you heard anything lately about {topic}?". Its keywords
("fire*", "injur*") are stems, not English, so the topic comes from the fact's own sentence instead, by generic
rules of English: the first noun phrase after the fact's verb that starts with a determiner ("is holding a bake
sale at ..." -> "a bake sale"; "gave birth to a baby girl" -> "a baby girl"), else the subject when it has one
("A fire at the library injured ..." -> "a fire at the library"). The subject is skipped when it names someone, so
the question never gives away who (nor reads as a question about a person). Possessives become "the".
"""

import re

# Verbs and auxiliaries that end a fact's subject; past tenses ("injured") end it too.
_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had", "will", "gave", "got", "won", "lost", "made"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that"})
_POSSESSIVES = frozenset({"her", "his", "their", "its", "my", "our"})
# Words that end a noun phrase: prepositions (but "of", inside one: "the end of the month"), conjunctions, times.
_ENDS = frozenset(
    {"at", "in", "on", "for", "to", "from", "with", "by", "near", "during", "until", "and", "or", "but", "next",
     "last", "this", "tomorrow", "today", "tonight", "because", "since", "who", "which", "that"}
)  # fmt: skip
# The topic of a fact in which no noun phrase is found ("Klaus Mueller is moving to Berlin").
NO_TOPIC = "the latest news"
# Longest topic, in words.
LONGEST = 8


def fact_topic(description: str) -> str:
    """The noun phrase a question about the fact asks about (NO_TOPIC when none is found)."""
    tokens = description.strip().rstrip(".!").split()
    verb = next(
        (i for i, token in enumerate(tokens) if i and (token.lower() in _VERBS or re.fullmatch(r"[a-z]+ed", token))),
        len(tokens),
    )
    subject = tokens[:verb]
    if subject and subject[0].lower() in _DETERMINERS:
        return " ".join([subject[0].lower(), *subject[1:]][:LONGEST])
    found, taken = [], 0  # (led by a place or time preposition, the phrase); where the last phrase ended
    for start in range(verb + 1, len(tokens)):
        word = tokens[start].lower()
        if start >= taken and word in _DETERMINERS | _POSSESSIVES and word not in {"this", "that"}:
            phrase = _phrase(tokens, start)
            taken = start + len(phrase)
            if len(phrase) > 1:
                found.append((tokens[start - 1].lower() in _WHERE_WHEN, ["the" if word in _POSSESSIVES else word,
                                                                        *phrase[1:]]))  # fmt: skip
    direct = [phrase for placed, phrase in found if not placed]
    if direct:
        return " ".join(direct[0])
    if subject and not _PERSON.fullmatch(" ".join(subject)):
        return " ".join(subject)
    return " ".join(found[0][1]) if found else NO_TOPIC


# Adverbs end a noun phrase ("her new picture book aloud in ...").
_ADVERB = re.compile(r"\w+ly|aloud|together|again|soon|too")
# Prepositions of place and time: a noun phrase after them says where or when, not what.
_WHERE_WHEN = frozenset({"at", "in", "on", "near", "during", "until", "by", "from", "with", "after", "before"})
# A person's name (two or three capitalised words, or two names joined by "and"): never the topic.
_PERSON = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}(?: and [A-Z][a-z]+(?: [A-Z][a-z]+){1,2})?")


def _phrase(tokens: list[str], start: int) -> list[str]:
    """The noun phrase that starts at `start`: up to a word that ends one, a comma, or LONGEST words."""
    phrase = [tokens[start]]
    for token in tokens[start + 1 :]:
        if token.lower() in _ENDS or len(phrase) == LONGEST or _ADVERB.fullmatch(token.lower()):
            break
        phrase.append(token.rstrip(","))
        if token.endswith(","):
            break
    return phrase


def fill_topic(template: str, topic: str) -> str:
    """The question with its topic; a template written for a bare noun ("about a {topic}") takes the phrase whole."""
    template = re.sub(r"\b(?:a|an)\s+\{topic\}", "{topic}", template)
    return template.format(topic=topic)
