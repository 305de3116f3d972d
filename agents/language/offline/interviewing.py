"""The offline mind interviewed: answers in the first person from the memories shown, else from the persona.

It reads only the request: the question, the memories retrieved for it and the persona; what the persona is up to
(its status) comes first when it bears on the question, then the memories sharing most of the question's topic
words, things it was told before things it only saw. Asked about a person, it
says who they are when a memory says so or tells of a talk, and that it only saw them when its memories are
sightings ("Latoya Williams is having lunch"). With no memory shown (a condition that hides them all), it answers
from its persona (who it is, what it is up to), as a language model shown only the persona would.
"""

import re

from agents.identity import Identity
from agents.language.offline.claims import content_stems, person_names, same_word, states, stem
from agents.language.offline.thinking import gist
from agents.language.requests import InterviewRequest

_WORD = re.compile(r"[a-z']+")
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


def interview(request: InterviewRequest, seed: int) -> dict:
    """Answer from the memories that share the question's topic words, or from the persona when none is shown."""
    del seed
    me = request.identity
    others = [name for name in person_names(request.question) if name != me.name]
    if others:
        return {"answer": _about_person(me.name, others[0], request.memories)}
    if not request.memories:
        return {"answer": from_persona(me, request.question)}
    topic = _topic(request.question)
    own = [sentence for sentence in _sentences(me.currently) if _shared(topic, sentence)][:1]
    ranked = sorted(request.memories, key=lambda memory: (-_shared(topic, memory), _sighting(memory)))
    relevant = list(dict.fromkeys(gist(memory) for memory in ranked if _shared(topic, memory)))[: QUOTED - len(own)]
    if not relevant and not own:
        return {"answer": from_persona(me, request.question)}
    return {"answer": "Let me think. " + " ".join(first_person(text, me) for text in own + relevant)}


def _sentences(text: str) -> list[str]:
    return [sentence.strip() for sentence in re.split(r"(?<=[.;])\s+", text) if sentence.strip()]


def _sighting(memory: str) -> bool:
    """An observation of someone's activity ("John Lin is attending ...", "the sofa is being used by ...")."""
    return bool(re.match(r"^(?:[A-Z][a-z]+ )+is \w+ing\b", memory) or "being used by" in memory)


def from_persona(identity: Identity, question: str) -> str:
    """The persona's sentences on the question's topic; asked about itself, who it is; else that it does not know."""
    parts = (identity.currently, identity.learned, identity.innate, identity.lifestyle, identity.daily_plan_req)
    sentences = [sentence for text in parts for sentence in _sentences(text)]
    topic = _topic(question)
    shared = sorted((s for s in sentences if _shared(topic, s)), key=lambda s: -_shared(topic, s))[:QUOTED]
    if shared:
        return " ".join(first_person(sentence, identity) for sentence in shared)
    if _ABOUT_YOU.search(question):
        learned = first_person(re.split(r"(?<=\.)\s+", identity.learned)[0], identity)
        return f"I'm {identity.name}, {identity.age}. {learned}"
    return UNKNOWN


def _about_person(me: str, person: str, memories: tuple[str, ...]) -> str:
    """Who the person is to the speaker, from memories that say so or of a talk; hearsay and sightings are not that."""
    first = person.split(maxsplit=1)[0]
    about = [memory for memory in memories if first in memory]
    knowing = [memory for memory in about if states(f"{me} knows who {person} is", memory, speaker=me)]
    if knowing:
        return f"Yes, I know {first}. " + " ".join(_talk_in_first_person(gist(memory)) for memory in knowing[:QUOTED])
    heard = [memory for memory in about if not seen_only(memory, person)]
    if heard:
        return f"I have heard of {person} ({gist(heard[0]).rstrip('.')}), but I don't know them personally."
    if about:
        return f"I have seen {person} around ({gist(about[0]).rstrip('.')}), but I don't really know them."
    return f"I don't think I know {person}."


def seen_only(memory: str, person: str) -> bool:
    """A memory of merely seeing the person: "Klaus Mueller is reading", "the sofa is being used by Klaus Mueller"."""
    first = re.escape(person.split(maxsplit=1)[0])
    return bool(re.match(rf"{first}\b[\w ]*? is \w+ing\b", memory) or re.search(rf"being used by {first}\b", memory))


def first_person(text: str, identity: Identity) -> str:
    """A memory or persona sentence about the speaker, in the speaker's voice ("Isabella Rodriguez is" -> "I am")."""
    for name in (identity.name, identity.first_name):
        text = re.sub(rf"^{re.escape(name)} is\b", "I am", text)
        text = re.sub(rf"\b{re.escape(name)}'s\b", "my", text)
    return _talk_in_first_person(text).rstrip(".") + "."


def _talk_in_first_person(text: str) -> str:
    """A talk's memory ("conversation with Klaus Mueller: ...") as "I talked with Klaus Mueller: ..."."""
    return re.sub(r"^conversation with ", "I talked with ", text)


def _topic(text: str) -> set[str]:
    return {stem for stem in content_stems(text) if stem not in _ASKING}


def _shared(topic: set[str], text: str) -> int:
    """How many of the topic's stems the text holds ("photo" and "photographs" are one)."""
    words = _topic(text)
    return sum(1 for stem in topic if any(same_word(stem, word) for word in words))
