"""The offline mind interviewed: answers in the first person from the memories shown, else from the persona.

It reads only the request: the question, the memories retrieved for it and the persona; what the persona is up to
(its status) comes first when it bears on the question, then the memories sharing most of the question's topic
words, things it was told before things it only saw. Asked about a person, it
says who they are when a memory says so or tells of a talk, and that it only saw them when its memories are
sightings ("Latoya Williams is having lunch"); its status saying who someone is (its wife, its housemate) counts as
such a memory. With no memory shown (a condition that hides them all), it answers from its persona as a language
model shown only the persona would: the persona's sentences on the question's topic, said in the first person; who
someone is when its status says so; who it is when asked about itself; else that it does not know.
"""

import re

from agents.identity import Identity
from agents.language.offline.morphology import ADVERB, possessive, verb_after_i
from agents.language.offline.reading import content_stems, person_names, same_word, says_who, stem
from agents.language.offline.thinking import gist
from agents.language.offline.words import sentences_of
from agents.language.requests import InterviewRequest
from agents.persona import to_first_person

# Words of a question that say nothing about its topic.
_ASKING = frozenset(
    stem(word) for word in ("know", "tell", "heard", "hear", "anything", "lately", "yourself", "have", "any", "did")
)
UNKNOWN = "I don't really know anything about that."
# A question about the speaker itself ("Introduce yourself", "What do you do for a living?"), not "do you know...".
_ABOUT_YOU = re.compile(
    r"\byourself\b|\byour\b|\bwho are you\b|\bwhat do you do\b|\b(?:about|for|to) you\b", re.IGNORECASE
)
# Memories quoted in one answer.
QUOTED = 2
# Topic words a persona sentence must share with the question to answer it (fewer when the question has fewer):
# one shared word is often an accident ("running for mayor" and "running a bar", "Valentine's Day" and "her days").
PERSONA_TOPIC_WORDS = 2


def interview(request: InterviewRequest, seed: int) -> dict:
    """Answer from the memories that share the question's topic words, or from the persona when none is shown."""
    del seed
    me = request.identity
    others = [name for name in person_names(request.question) if name != me.name]
    if others:
        return {"answer": _about_person(me, others[0], request.memories)}
    if not request.memories:
        return {"answer": from_persona(me, request.question)}
    topic = _topic(request.question)
    own = [sentence for sentence in sentences_of(me.currently) if _shared(topic, sentence)][:1]
    ranked = sorted(request.memories, key=lambda memory: (-_shared(topic, memory), _sighting(memory)))
    relevant = list(dict.fromkeys(gist(memory) for memory in ranked if _shared(topic, memory)))[: QUOTED - len(own)]
    if not relevant and not own:
        return {"answer": from_persona(me, request.question)}
    return {"answer": "Let me think. " + " ".join(first_person(text, me) for text in own + relevant)}


def _sighting(memory: str) -> bool:
    """An observation of someone's activity ("John Lin is attending ...", "the sofa is being used by ...")."""
    return bool(re.match(r"^(?:[A-Z][a-z]+ )+is \w+ing\b", memory) or "being used by" in memory)


def from_persona(identity: Identity, question: str) -> str:
    """The persona's sentences on the question's topic; asked about itself, who it is; else that it does not know."""
    parts = (identity.currently, identity.learned, identity.innate, identity.lifestyle, identity.daily_plan_req)
    sentences = [sentence for text in parts for sentence in sentences_of(text)]
    topic = _topic(question)
    needed = min(PERSONA_TOPIC_WORDS, len(topic))
    on_topic = [sentence for sentence in sentences if needed and _shared(topic, sentence) >= needed]
    shared = sorted(on_topic, key=lambda sentence: -_shared(topic, sentence))[:QUOTED]
    if shared:
        return " ".join(in_my_voice(sentence, identity) for sentence in shared)
    if _ABOUT_YOU.search(question):
        learned = in_my_voice(re.split(r"(?<=\.)\s+", identity.learned)[0], identity)
        return f"I'm {identity.name}, {identity.age}. {learned}"
    return UNKNOWN


def _about_person(me: Identity, person: str, memories: tuple[str, ...]) -> str:
    """Who the person is to the speaker, from its status or memories that say so or of a talk; not hearsay or sightings.

    With no memory shown (a condition that hides them all), the status alone answers, as the persona tells it.
    """
    first = person.split(maxsplit=1)[0]
    status = [sentence for sentence in sentences_of(me.currently) if says_who(person, sentence, me.name)]
    about = [memory for memory in memories if first in memory]
    knowing = [memory for memory in about if says_who(person, memory, me.name)]
    if status or knowing:
        said = [in_my_voice(sentence, me) for sentence in status] + [
            _talk_in_first_person(_naming(memory, first)).rstrip(".") + "." for memory in knowing
        ]
        return f"Yes, I know {first}. " + " ".join(said[:QUOTED])
    heard = [memory for memory in about if not seen_only(memory, person)]
    if heard:
        return f"I have heard of {person} ({gist(heard[0]).rstrip('.')}), but I don't know them personally."
    if about:
        return f"I have seen {person} around ({gist(about[0]).rstrip('.')}), but I don't really know them."
    return f"I don't think I know {person}."


def _naming(memory: str, first: str) -> str:
    """The part of the memory that names the person (with who told it), else its gist."""
    frame, _, told = memory.rpartition(" told me: ") if " told me: " in memory else ("", "", memory)
    part = next((part for part in re.split(r";\s+", told) if re.search(rf"\b{re.escape(first)}\b", part)), "")
    if not part:
        return gist(memory)
    return gist(f"{frame} told me: {part}" if frame else part)


def seen_only(memory: str, person: str) -> bool:
    """A memory of merely seeing the person: "Klaus Mueller is reading", "the sofa is being used by Klaus Mueller"."""
    first = re.escape(person.split(maxsplit=1)[0])
    return bool(re.match(rf"{first}\b[\w ]*? is \w+ing\b", memory) or re.search(rf"being used by {first}\b", memory))


def first_person(text: str, identity: Identity) -> str:
    """A memory or persona sentence about the speaker, in the speaker's voice ("Isabella Rodriguez is" -> "I am")."""
    for name in (identity.name, identity.first_name):
        text = re.sub(rf"^{re.escape(name)} is\b", "I am", text)
        text = re.sub(rf"\b{re.escape(possessive(name))}\b", "my", text)
    return _talk_in_first_person(text).rstrip(".") + "."


def in_my_voice(sentence: str, identity: Identity) -> str:
    """A persona sentence in the speaker's voice: "Sam Moore lives with his wife" is "I live with my wife".

    The persona tells of the speaker by name or as "he"/"she" (each its verb in the third person, as are the verbs
    of the clauses after a comma or "and": "goes to bed around 9pm, eats dinner around 5pm"), its status at times in the
    second person ("You don't like ..."); memories keep their pronouns (first_person).
    """
    if re.match(r"You\b", sentence):
        return to_first_person(sentence).rstrip(".") + "."
    names = "|".join(re.escape(name) for name in (identity.name, identity.first_name))
    text, said = re.subn(rf"^(?:{names}|He|She) {_ADVERBS}(\S+)", lambda m: f"I {m[1]}{verb_after_i(m[2])}", sentence)
    if not said:
        return first_person(sentence, identity)
    verb = lambda match: f"{match[1]} {match[2]}{verb_after_i(match[3])}"  # noqa: E731
    text = re.sub(rf"\b(he|she) {_ADVERBS}(\w+)", lambda m: f"I {m[2]}{verb_after_i(m[3])}", text)
    text = re.sub(rf"(,(?: and)?(?: then)?) {_ADVERBS}([a-z]+s)\b", verb, text)
    text = re.sub(
        r"\b(and) ()(is|has|does|[a-z]+s(?= (?:with|a|an|the|my|his|her|to|in|at|on|for|about)\b))\b", verb, text
    )
    text = re.sub(r"\b(?:his|her)\b(?= \w)", "my", text)
    text = re.sub(r"\b(?:him|her)self\b", "myself", text)
    return first_person(text, identity)


# Adverbs between a subject and its verb ("He mostly works", "she is also").
_ADVERBS = rf"((?:{ADVERB} )*)"


def _talk_in_first_person(text: str) -> str:
    """A talk's memory ("conversation with Klaus Mueller: ...") as "I talked with Klaus Mueller: ..."."""
    return re.sub(r"^conversation with ", "I talked with ", text)


def _topic(text: str) -> set[str]:
    return {stem for stem in content_stems(text) if stem not in _ASKING}


def _shared(topic: set[str], text: str) -> int:
    """How many of the topic's stems the text holds ("photo" and "photographs" are one)."""
    words = _topic(text)
    return sum(1 for stem in topic if any(same_word(stem, word) for word in words))
