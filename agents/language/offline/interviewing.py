"""The offline mind interviewed: what it holds that bears most on the question, restated in the first person.

It reads only the request: the question, the memories retrieved for it and the persona. It says the sentences of its
status and the memories that share most of the question's topic words (a person asked about is such words: their
names), the weightiest first among equals (salience.py), each in the speaker's own voice (voice.own_voice: "Isabella
Rodriguez is planning ..." said by Isabella is "I am planning ..."; a talk's memory is "I talked with ..."). With no
memory shown (a condition that hides them all), it answers from its persona as a language model shown only the
persona would: the persona's sentences on the question's topic; who it is when asked about itself; else that it does
not know the person or the thing asked about.
"""

import re

from agents.identity import Identity
from agents.language.english.voice import own_voice
from agents.language.english.words import FULL_NAME, content_words, sentences_of
from agents.language.offline.salience import importance_of
from agents.language.offline.thinking import gist
from agents.language.requests import InterviewRequest
from agents.persona import to_first_person

# Words of a question that say nothing about its topic.
_ASKING = frozenset(("know", "tell", "heard", "hear", "anything", "lately", "yourself", "have", "any", "did"))
UNKNOWN = "I don't really know anything about that."
# A question about the speaker itself ("Introduce yourself", "What do you do for a living?"), not "do you know...".
_ABOUT_YOU = re.compile(
    r"\byourself\b|\byour\b|\bwho are you\b|\bwhat do you do\b|\b(?:about|for|to) you\b", re.IGNORECASE
)
# Sentences quoted in one answer.
QUOTED = 2
# Topic words a persona sentence must share with the question to answer it (fewer when the question has fewer):
# one shared word is often an accident ("running for mayor" and "running a bar", "Valentine's Day" and "her days").
PERSONA_TOPIC_WORDS = 2
# Letters of a word that name its topic: a long word matches another that starts alike ("closes" and "closing").
PREFIX = 5


def interview(request: InterviewRequest, seed: int) -> dict:
    """The status sentences and memories sharing most of the question's topic words, or the persona when none does."""
    del seed
    me = request.identity
    topic = _topic(request.question)
    status = sentences_of(me.currently) if request.memories else []
    held = dict.fromkeys([*status, *(gist(memory) for memory in request.memories)])
    ranked = sorted(held, key=lambda text: (-_shared(topic, text), -importance_of(text)))
    said = dict.fromkeys(said_by(me, text, persona=text in status) for text in ranked if _shared(topic, text))
    # One thing said twice (a status sentence and the memory seeded from it) is said once, in its shorter words.
    relevant = [line for line in said if not any(other != line and other[:-1] in line for other in said)][:QUOTED]
    if relevant:
        return {"answer": "Let me think. " + " ".join(relevant)}
    return {"answer": from_persona(me, request.question)}


def from_persona(identity: Identity, question: str) -> str:
    """The persona's sentences on the question's topic; asked about itself, who it is; else that it does not know."""
    parts = (identity.currently, identity.learned, identity.innate, identity.lifestyle, identity.daily_plan_req)
    sentences = [sentence for text in parts for sentence in sentences_of(text)]
    topic = _topic(question)
    needed = min(PERSONA_TOPIC_WORDS, len(topic))
    on_topic = [sentence for sentence in sentences if needed and _shared(topic, sentence) >= needed]
    shared = sorted(on_topic, key=lambda sentence: -_shared(topic, sentence))[:QUOTED]
    if shared:
        return " ".join(said_by(identity, sentence) for sentence in shared)
    if _ABOUT_YOU.search(question):
        return f"I'm {identity.name}, {identity.age}. {said_by(identity, sentences_of(identity.learned)[0])}"
    others = [name for name in FULL_NAME.findall(question) if name != identity.name]
    return f"I don't think I know {others[0]}." if others else UNKNOWN


def said_by(identity: Identity, text: str, *, persona: bool = True) -> str:
    """A persona sentence or a memory as the speaker says it: "He mostly works" of the persona is "I mostly work".

    The persona speaks of the speaker by name, as "He" or "She", at times as "You" (its status); a talk's memory
    ("conversation with Klaus Mueller: ...") is "I talked with Klaus Mueller: ...".
    """
    if re.match(r"You\b", text):
        text = to_first_person(text)
    text = re.sub(r"^(?:He|She)(?= [a-z])", identity.name, text)
    if persona:  # the persona's "his wife" is the speaker's; a memory's "asked her out" is someone else's
        text = re.sub(r"\b(?:his|her)\b(?= \w)", "my", text)
    text = re.sub(r"^conversation with ", "I talked with ", text)
    text = own_voice(text, identity.name).rstrip(".") + "."
    return text[:1].upper() + text[1:]


def _topic(text: str) -> set[str]:
    """The roots of a text's content words: endings off ("closes", "close" and "closing" are one), PREFIX letters.

    A long word matches another that starts alike ("photo" and "photographs", "mayor" and "mayoral").
    """
    return {re.sub(r"(?<=\w{3})(?:ing|ed|es|(?<!s)s|e)$", "", word)[:PREFIX] for word in content_words(text) - _ASKING}


def _shared(topic: set[str], text: str) -> int:
    """How many of the topic's words the text holds."""
    return len(topic & _topic(text))
