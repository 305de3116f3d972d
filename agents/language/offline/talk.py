"""The offline mind's social side: whether to talk, what to say, and what each side keeps.

Lines pass on what the speaker retrieved for the listener, in the speaker's own voice and in whole sentences: its own
thoughts in the first person, what others told it in the third person with their names. Each side keeps what the
other said retold the same way (voice.py), so news travels from memory to memory and is never mistaken for the
listener's own.
"""

import re

from agents.language.english.voice import own_voice
from agents.language.offline.news import GREETING, news_in, sentences, spoken
from agents.language.offline.salience import importance_of
from agents.language.offline.voice import third_person
from agents.language.offline.words import stable_fraction
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest, ReactionRequest
from agents.schedule import is_sleep

GOODBYE = "It was good talking to you. See you later!"
# The offline talker passes on at most this many lines' worth of news, then says goodbye.
OFFLINE_LINES = 8
# The speaker's own records, never news: its plan for the day and its summary of a day (planning.py writes them).
OWN_RECORDS = ("This is ", "Summary of ")
# A takeaway keeps whole sentences up to this many characters (the first always, however long): what was heard, not
# an ever-growing chain of quotes.
LONGEST_TAKEAWAY = 400


def react(request: ReactionRequest, seed: int) -> dict:
    """Talk to people it knows, now and then to strangers; never to the sleeping. A talk opens as any line opens.

    A wait is chosen only when offered (a place both are headed for) and the other is someone it knows.
    """
    if is_sleep(request.own_activity) or is_sleep(request.other_activity):
        return {"choice": "continue", "reason": "someone is asleep", "relationship": "", "line": ""}
    memories = list(request.memories)
    knows = bool(_about(memories, request.other))
    chance = (0.35 if not request.last_chat else 0.1) if knows else 0.03
    draw = stable_fraction(seed, request.identity.name, request.other, request.now.date(), request.now.hour)
    if draw < chance:
        reason = f"I know {request.other}" if knows else f"I would like to meet {request.other}"
        opening = _opening(request.other, _news(memories, (), request.identity.name, request.other))
        relationship = relationship_with(memories, request.other)
        return {"choice": "talk", "reason": reason, "relationship": relationship, "line": opening}
    if "wait" in request.choices and knows:
        return {"choice": "wait", "reason": f"{request.other} is using it", "relationship": "", "line": ""}
    return {"choice": "continue", "reason": "busy with what I am doing", "relationship": "", "line": ""}


def _about(memories: list[str], person: str) -> list[str]:
    first = person.split(maxsplit=1)[0]
    return [memory for memory in memories if person in memory or first in memory]


def relationship_with(memories: list[str], partner: str) -> str:
    """What the speaker knows of the partner: its weightiest memory naming them, else that it hardly knows them."""
    about = [piece for memory in _about(memories, partner) for piece in news_in(memory)]
    return max(about, key=importance_of) if about else f"I do not know {partner} well yet."


# Someone seen at an action, as perception writes it: "Maria Lopez is studying (reading notes)", with the step in
# brackets, or at an activity of the moment ("Maria Lopez is talking with Eddy Lin", "... is waiting for Eddy Lin to
# finish ..."). What people happen to be doing is no news to pass on.
_SIGHTING = re.compile(r"^[A-Z][\w'-]* [A-Z][\w'-]* is (?:[^()]+ \([^()]*\)|(?:talking with|waiting for) [A-Z].*)$")
# A sentence's subject when it is someone's name (two capitalized words and a lower-case word after them).
_SUBJECT = re.compile(r"^[A-Z][\w'-]* [A-Z][\w'-]* (?=[a-z])")
# What a talk without news leaves (summarize, below): a takeaway of a short chat, a summary about how they are doing.
SHORT_CHAT = "had a short chat with"
NO_TOPIC = "how they are doing"


def _trivial(piece: str, me: str, partner: str) -> bool:
    """Whether a piece is no news to pass on.

    Idle objects, objects in use, sleep, plans, questions, someone seen at an action, what the two are doing right
    now, and what is about the listener (told to them in the third person, it is their own fact).
    """
    lower = piece.lower()
    doing = tuple(f"{name.lower()} is " for name in (me, partner))
    seen = "is idle" in lower or "is being used by" in lower or "sleeping" in lower or bool(_SIGHTING.match(piece))
    seen = seen or SHORT_CHAT in lower or lower.rstrip(".") == NO_TOPIC
    theirs = piece.startswith(f"{partner} ")
    return seen or theirs or piece.rstrip().endswith("?") or lower.startswith(("this is", "summary of", *doing))


def _key(sentence: str, speaker: str) -> str:
    """What a sentence says, whoever says it and of whom: its start, lower case, the speaker's names as "X".

    In the third person and with the speaker unnamed, a retelling ("Mei Lin has known the Moores" after Mei Lin's
    "I've known the Moores") and an echo ("I've known my neighbours" after the partner said it of theirs) have the
    same key as what was said.
    """
    text = _SUBJECT.sub("", third_person(sentence, speaker, kept_by_listener=False))
    for name in (speaker, speaker.split(maxsplit=1)[0]):
        text = re.sub(rf"\b{re.escape(name)}\b", "X", text)
    return re.sub(r"\W+", " ", text.lower()).strip()[:60]


def _told(lines: tuple[tuple[str, str], ...]) -> set[str]:
    """The keys of every sentence said in the talk so far."""
    return {_key(sentence, speaker) for speaker, text in lines for sentence in sentences(GREETING.sub("", text))}


def _among(key: str, told: set[str]) -> bool:
    """Whether a piece's key was said: the same start as a sentence said (a piece may be two sentences)."""
    return any(key.startswith(said) or said.startswith(key) for said in told if said)


def _news(memories: list[str], lines: tuple[tuple[str, str], ...], me: str, partner: str) -> list[str]:
    """The news in these memories not yet told in the talk, the most important first, as `me` says it.

    A piece counts as told when either side already said it in any voice: "I've known the Moores" said by Mei Lin is
    told when Eddy Lin said "Mei Lin has known the Moores"; and what the partner told `me` is theirs, never news to
    them.
    """
    told = (memory for memory in memories if not memory.startswith(OWN_RECORDS) and f"{partner} told me:" not in memory)
    pieces = (piece for memory in told for piece in news_in(memory) if not _trivial(piece, me, partner))
    candidates = dict.fromkeys(own_voice(spoken(piece), me) for piece in pieces)
    told = _told(lines)
    untold = [piece for piece in candidates if not _among(_key(piece, me), told)]
    return sorted(untold, key=lambda piece: -importance_of(piece))


def _opening(partner: str, news: list[str]) -> str:
    """A greeting, and what is most on one's mind about the listener."""
    return f"Hi {partner.split(maxsplit=1)[0]}! " + _as_said(news[0] if news else "How are you doing?")


def _as_said(piece: str) -> str:
    """A piece of news as a line: capitalized, ending as a sentence does."""
    piece = piece.strip()
    piece = piece[:1].upper() + piece[1:]
    return piece if piece.endswith((".", "!", "?")) else f"{piece}."


def line(request: ConversationLineRequest, seed: int) -> dict:
    """A greeting, then one untold piece of news per turn (the most important first), then goodbye.

    What is told is what the speaker retrieved for this listener and this talk (the request's memories), ranked by the
    same generic rules of importance (salience.py), so any news of the same shape travels alike, whatever its words.
    A first line that is asked what the speaker feels and knows about the partner answers that too.
    """
    del seed
    memories = list(request.memories)
    news = _news(memories, tuple(request.lines), request.speaker.name, request.partner)
    turn = {"relationship": relationship_with(memories, request.partner) if request.asks_relationship else ""}
    if not request.lines:
        return {**turn, "line": _opening(request.partner, news), "end": False}
    if not news or len(request.lines) >= min(OFFLINE_LINES, request.max_lines) - 1:
        return {**turn, "line": GOODBYE, "end": True}
    return {**turn, "line": _as_said(news[0]), "end": False}


def _heard(said: str, speaker: str, listener: str, *, kept_by_listener: bool = True) -> list[str]:
    """What a listener keeps of a line: its sentences without the greeting, retold in the third person.

    A question tells nothing, nor does a sentence of three words or fewer ("See you there!").
    """
    sentences_told = (sentence for sentence in sentences(GREETING.sub("", said)) if not sentence.endswith("?"))
    heard = (third_person(told, speaker, listener, kept_by_listener=kept_by_listener) for told in sentences_told)
    return [sentence for sentence in heard if len(sentence.split()) > 3]


def _whole(pieces: list[str], limit: int) -> str:
    """Whole pieces joined with "; " while they fit in `limit` characters (the first always)."""
    kept: list[str] = []
    for piece in pieces:
        if kept and len("; ".join([*kept, piece])) > limit:
            break
        kept.append(piece.rstrip(". "))
    return "; ".join(kept)


def summarize(request: ConversationSummaryRequest, seed: int) -> dict:
    """What a talk was about, and what each side keeps, in the third person with the teller named.

    The topic is the first thing said that is not a greeting; each side keeps what the other told it.
    """
    del seed
    partner = {request.first: request.second, request.second: request.first}
    lines = [(speaker, text) for speaker, text in request.lines if text != GOODBYE]
    said = [told for speaker, text in lines for told in _heard(text, speaker, partner[speaker], kept_by_listener=False)]
    about = f": {said[0].rstrip('. ')}" if said else f" about {NO_TOPIC}"
    summary = f"{request.first} and {request.second} talked{about}"
    takeaways = []
    for name, other in partner.items():
        kept = _whole(
            [told for by, text in lines if by == other for told in _heard(text, other, name)], LONGEST_TAKEAWAY
        )
        takeaway = f"{other} told me: {kept}" if kept else f"I {SHORT_CHAT} {other}."
        chat = importance_of(f"conversation with {other}: {summary}")
        takeaways.append({"name": name, "takeaway": takeaway, "chat_importance": chat,
                          "takeaway_importance": importance_of(takeaway)})  # fmt: skip
    return {"summary": summary, "takeaways": takeaways}
