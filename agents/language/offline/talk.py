"""The offline mind's social side: whether to talk, what to say, and what each side keeps.

Lines pass on what the speaker retrieved; each side keeps what the other said; so news travels from memory to memory.
"""

import re

from agents.identity import Identity
from agents.language.offline.news import GREETING, news_in
from agents.language.offline.salience import importance_of
from agents.language.offline.words import stable_fraction
from agents.language.requests import ConversationLineRequest, ConversationSummaryRequest, ReactionRequest
from agents.schedule import is_sleep

GOODBYE = "It was good talking to you. See you later!"
# The offline talker passes on at most this many lines' worth of news, then says goodbye.
OFFLINE_LINES = 8
# Longest takeaway (characters): it keeps what was heard, not an ever-growing chain of quotes.
LONGEST_TAKEAWAY = 320


def react(request: ReactionRequest, seed: int) -> dict:
    """Talk to people it knows, now and then to strangers; never to the sleeping. A talk opens as any line opens."""
    if is_sleep(request.own_activity) or is_sleep(request.other_activity):
        return {"choice": "continue", "reason": "someone is asleep", "line": ""}
    first = request.other.split()[0]
    knows = any(request.other in memory or first in memory for memory in request.memories)
    chance = (0.35 if not request.last_chat else 0.1) if knows else 0.03
    draw = stable_fraction(seed, request.identity.name, request.other, request.now.date(), request.now.hour)
    if draw < chance:
        reason = f"I know {request.other}" if knows else f"I would like to meet {request.other}"
        memories = [*request.memories, *_status(request.identity)]
        opening = _opening(request.other, _news(memories, "", (request.identity.name, request.other)))
        return {"choice": "talk", "reason": reason, "line": opening}
    return {"choice": "continue", "reason": "busy with what I am doing", "line": ""}


def _trivial(memory: str, people: tuple[str, ...]) -> bool:
    """Idle objects, sleep, plans and what the two are doing right now make no news."""
    lower = memory.lower()
    doing = tuple(f"{name.lower()} is " for name in people)
    return "is idle" in lower or "sleeping" in lower or lower.startswith(("this is", "summary of", *doing))


def _said(news: str, transcript: str) -> bool:
    return news[:60].lower() in transcript


def _status(identity: Identity) -> list[str]:
    """What the speaker is up to these days, sentence by sentence: its plans are news to pass on too."""
    return [part.strip() for part in re.split(r"(?<=[.;!])\s+", identity.currently.replace("*", "")) if part]


def _news(memories: list[str], transcript: str, people: tuple[str, ...]) -> list[str]:
    """The news in these memories not yet told in the talk, the most important first."""
    candidates = dict.fromkeys(piece for memory in memories for piece in news_in(memory))
    untold = (piece for piece in candidates if not _trivial(piece, people) and not _said(piece, transcript))
    return sorted(untold, key=lambda piece: -importance_of(piece))


def _opening(partner: str, news: list[str]) -> str:
    """A greeting, and what is most on one's mind."""
    return f"Hi {partner.split(maxsplit=1)[0]}! " + (news[0] if news else "How are you doing?")


def line(request: ConversationLineRequest, seed: int) -> dict:
    """A greeting, then one untold piece of news per turn (the most important first), then goodbye.

    One opens with what is on one's mind (the retrieved memories and what the status says one is up to), then goes
    on from what the talk brings to mind (the retrieved memories). News is ranked by the same generic rules of
    importance (salience.py), so any news of the same shape travels alike, whatever its words.
    """
    del seed
    transcript = " ".join(text for _, text in request.lines).lower()
    memories = [*request.memories, *(() if request.lines else _status(request.speaker))]
    news = _news(memories, transcript, (request.speaker.name, request.partner))
    if not request.lines:
        return {"line": _opening(request.partner, news), "end": False}
    if not news or len(request.lines) >= min(OFFLINE_LINES, request.max_lines) - 1:
        return {"line": GOODBYE, "end": True}
    return {"line": news[0], "end": False}


def summarize(request: ConversationSummaryRequest, seed: int) -> dict:
    """The first thing said that is not a greeting as the topic; each side keeps what the other told it."""
    del seed
    told = {
        name: [text for speaker, text in request.lines if speaker == name and text != GOODBYE]
        for name in (request.first, request.second)
    }
    topics = [GREETING.sub("", text).strip(" !,") for texts in told.values() for text in texts]
    topic = next((t for t in topics if len(t.split()) > 3), "how they are doing")
    takeaways = {}
    for name, other in ((request.first, request.second), (request.second, request.first)):
        heard = "; ".join(said for text in told[other] if (said := GREETING.sub("", text).strip(" !,;")))
        takeaway = f"{other} told me: {heard}" if len(heard.split()) > 3 else f"I had a short chat with {other}."
        takeaways[name] = takeaway[:LONGEST_TAKEAWAY]
    summary = f"{request.first} and {request.second} talked about {' '.join(topic.split()[:12])}"
    importance = {
        name: {
            "chat": importance_of(f"conversation with {other}: {summary}"),
            "takeaway": importance_of(takeaways[name]),
        }
        for name, other in ((request.first, request.second), (request.second, request.first))
    }
    return {"summary": summary, "takeaways": takeaways, "importance": importance}
