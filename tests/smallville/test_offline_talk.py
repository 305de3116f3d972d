"""Offline talk a reader can follow, over a real offline day: every line is the speaker's own, in whole sentences.

A line passes on what its speaker retrieved for the listener (a whole piece of one of the memories the request
showed, in the speaker's own voice), never cut mid-sentence, and no one says another agent's first-person sentence
as if it were theirs.
"""

import json
import re
from collections import defaultdict
from datetime import datetime
from functools import cache

import pytest

from agents.language.english.voice import own_voice
from agents.language.offline import offline_answer
from agents.language.offline.news import GREETING, news_in, sentences, spoken
from agents.language.offline.talk import GOODBYE
from smallville.model import SmallvilleModel

pytestmark = pytest.mark.slow  # a day of three agents


@cache
def day() -> tuple[SmallvilleModel, list]:
    """The_ville_n3's first day offline, and every conversation line asked with its answer."""
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing")
    asked = []
    ask = model.gateway.ask

    async def keep(request, agent):
        answer = await ask(request, agent)
        if request.kind == "conversation_line":
            asked.append(getattr(request, "inner", request))
        return answer

    model.gateway.ask = keep
    model.run_until(datetime(2023, 2, 14, 0, 0))
    model.close()
    return model, asked


@cache
def town_day() -> SmallvilleModel:
    """The 25 agents' first day offline (a few seconds with the hashing embedder): talk among many people."""
    model = SmallvilleModel(scenario_name="the_ville_n25", embedder="hashing")
    model.run_until(datetime(2023, 2, 14, 0, 0))
    model.close()
    return model


def _body(line: str) -> str:
    return GREETING.sub("", line).strip()


def test_the_day_has_talk():
    model, asked = day()
    assert len(asked) >= 6 and sum(e["kind"] == "talk" for e in model.event_log) >= 2


def test_every_line_is_a_whole_piece_of_what_the_speaker_retrieved_in_its_own_voice():
    _, asked = day()
    for request in asked:
        line = json.loads(offline_answer(request, seed=0))["line"]
        body = _body(line).rstrip(".")
        if line == GOODBYE or body in ("How are you doing?", ""):
            continue
        said = (own_voice(spoken(piece), request.speaker.name) for m in request.memories for piece in news_in(m))
        pieces = {piece.rstrip(".") for piece in said}
        assert body in pieces, f"{request.speaker.name} said {line!r}, which is none of its memories' pieces"


def test_no_memory_piece_is_cut_mid_sentence():
    _, asked = day()
    for memory in {memory for request in asked for memory in request.memories}:
        for piece in news_in(memory):
            at = memory.find(piece)
            assert at >= 0, (piece, memory)
            after = memory[at + len(piece) : at + len(piece) + 1]
            assert after in ("", ";", ".", "!", "?", " "), f"{piece!r} is cut out of {memory!r}"
            if after == " ":
                assert re.match(r"[.!?]\s", memory[at + len(piece) - 1 : at + len(piece) + 1]), (piece, memory)


# A first-person word anywhere in a sentence: its speaker speaks of itself.
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself|we|us|our|ours|ourselves)\b")


def in_first_person(sentence: str) -> bool:
    """Whether the sentence speaks of its speaker as "I" (or "we")."""
    return bool(_FIRST_PERSON.search(sentence))


def test_no_line_repeats_another_agents_first_person_sentence():
    model, _ = day()
    said_by = defaultdict(set)
    for event in model.event_log:
        if event["kind"] == "line":
            for sentence in sentences(_body(event["text"])):
                if in_first_person(sentence) and sentence not in (GOODBYE, "How are you doing?"):
                    said_by[sentence.rstrip(".!")].add(event["agent"])
    shared = {sentence: names for sentence, names in said_by.items() if len(names) > 1}
    assert not shared, shared
    own = {agent.name: {seed.rstrip(".") for seed in agent.persona.seeds} for agent in model.people}
    for sentence, names in said_by.items():
        (speaker,) = names
        others = [name for name, seeds in own.items() if name != speaker and sentence in seeds]
        assert not others, f"{speaker} said {others}'s own words: {sentence!r}"


@pytest.mark.parametrize("town", ["the_ville_n3", "the_ville_n25"])
def test_no_one_speaks_of_itself_by_name(town):
    """A speaker retelling news about itself says "I", "me", "my": "Francisco hasn't had the courage" said by
    Francisco Lopez, or "Wolfgang Schulz is close with Ayesha Khan" said by Ayesha Khan, read as broken."""
    model = day()[0] if town == "the_ville_n3" else town_day()
    lines = [event for event in model.event_log if event["kind"] == "line"]
    assert len(lines) >= 6
    for event in lines:
        first, surname = event["agent"].split(maxsplit=1)
        body = _body(event["text"])
        assert not re.search(rf"\b{first}\b(?! (?!{surname})[A-Z])", body), (event["agent"], event["text"])
