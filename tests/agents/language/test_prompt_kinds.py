"""Every kind of prompt, as a real offline run renders it: the context it must hold, no Ville in its examples, each
memory once, and an answer schema the offline answer meets.

The three agents of the_ville_n3 live a day and wake into the next (so the day's look back and the next day's plan
are asked), with a low reflection threshold so that they reflect and a short wait for a ride so that importance is
asked alone; every request the gateway is asked is kept.
"""

import json
import re
from collections import Counter
from datetime import datetime
from functools import cache

import jsonschema
import pytest

from agents.language.offline import offline_answer
from agents.language.quoting import unquoted_parts
from agents.language.request import PROMPTS
from agents.language.requests import ScoredRequest
from environment import load_ville
from smallville.model import SmallvilleModel
from smallville.scenarios.scenario import DATA_DIR
from testing import RIDER

END = datetime(2023, 2, 14, 7, 0)
pytestmark = pytest.mark.slow  # a day of three agents


@cache
def asked() -> dict[str, list]:
    """The requests of a short offline run, by kind (a rider's inner request under its own kind too)."""
    # A low reflection threshold so that they reflect, a short wait for a ride so that importance is asked alone.
    model = SmallvilleModel(
        scenario_name="the_ville_n3", embedder="hashing", reflection_threshold=60, importance_batch_minutes=60
    )
    requests: list = []
    ask = model.gateway.ask

    async def keep(request, agent):
        requests.append(request)
        return await ask(request, agent)

    model.gateway.ask = keep
    try:
        model.run_until(END)
    finally:
        model.close()
    kinds: dict[str, list] = {}
    for request in requests:
        kinds.setdefault(request.kind, []).append(request)
    return kinds


SIMULATION_KINDS = [
    "action", "conversation_line", "conversation_summary", "day_plan", "day_summary", "decompose", "hourly_schedule",
    "importance", "insights", "reaction", "reflection_questions", "schedule_rewrite", "wake_up",
]  # fmt: skip
# What each kind's prompt must tell the model (regular expressions over the user message), beyond the persona.
CONTEXT = {
    "wake_up": [r"At what hour does \w+ \w+ wake up"],
    "day_plan": [r"Today is \w+day February 1[34], 2023", r"Yesterday, in short: \"", r"under \"Currently\" above"],
    "hourly_schedule": [r"The plan for today:\n1\. \"from \d", r"exactly 1440 minutes"],
    "decompose": [r"From \d+:\d\d [ap]m to \d+:\d\d [ap]m \(\d+ minutes\)", r"Before that: .*After that: "],
    "action": [r"lives at the Ville:", r"\n- [^>\n]+ > [^:\n]+: ", r"\n1\. \""],
    "reaction": [r"It is \w+day February 1[34], 2023, \d+:\d\d [ap]m\.", r"notices \w+ \w+, who is \"",
                 r"They (last talked .+ ago|have not talked before)", r"\(\"talk\"\)", r"\"relationship\""],
    "conversation_line": [r"It is \w+day February 1[34], 2023, \d+:\d\d [ap]m, in the ", r"started the conversation",
                          r"was \".+\" when .+ saw .+ in the middle of \"", r"The conversation so far:\n\w+ \w+: \"",
                          r"(feels and knows about \w+ \w+: \"|Also give \"relationship\")"],
    "conversation_summary": [r"A conversation between \w+ \w+ and \w+ \w+:\n\w+ \w+: \"", r"naming who told them"],
    "schedule_rewrite": [r"now starts \".+\", which takes \d+ minutes", r"\n- \".+\" \(\d+ minutes\)"],
    "importance": [r"rate how important each\s+of these \d+ memories is to", r"\n1\. \""],
    "reflection_questions": [r"Recent memories of \w+ \w+:\n1\. \"", r"most salient high-level questions"],
    "insights": [r"\n\[\d+\] \"", r"\(memories \d+(, \d+)*\)"],
    "day_summary": [r"It is the end of Monday February 13, 2023", r"\n- Monday February 13, \d+:\d\d [ap]m: \"",
                    r"status for Tuesday February 14, 2023", r"\(date, time and place\)"],
}  # fmt: skip


def _user(request) -> str:
    return request.messages()[1]["content"]


def test_a_day_asks_every_kind_of_the_simulation():
    assert set(SIMULATION_KINDS) <= set(asked())  # (object reactions need an object in an unusual state)


@pytest.mark.parametrize("kind", SIMULATION_KINDS)
def test_every_prompt_of_a_kind_holds_the_context_it_needs(kind):
    for request in asked()[kind]:
        prompt = _user(request).partition(RIDER)[0]
        missing = [pattern for pattern in CONTEXT[kind] if not re.search(pattern, prompt)]
        assert not missing, f"{kind} prompt lacks {missing}:\n{prompt}"


def test_talk_lines_show_what_the_speaker_thinks_of_the_other_and_push_no_news():
    lines = [_user(request) for request in asked()["conversation_line"]]
    assert any(re.search(r"feels and knows about \w+ \w+: \"", prompt) for prompt in lines)
    instructions = [prompt.partition(RIDER)[0].split("The conversation so far:")[-1] for prompt in lines]
    assert not any(re.search(r"\bnews\b", unquoted_parts(text)) for text in instructions)


def _quoted_list_items(prompt: str) -> list[str]:
    """The quoted texts a prompt lists one a line: numbered memories, timed memories, [id] memories."""
    return re.findall(r'^(?:\d+\. |- [^"\n]*?: |\[\d+\] )(".*")', prompt, flags=re.MULTILINE)


@pytest.mark.parametrize("kind", SIMULATION_KINDS)
def test_no_prompt_lists_a_memory_twice(kind):
    for request in asked()[kind]:
        for part in _user(request).split(RIDER):
            repeated = [text for text, times in Counter(_quoted_list_items(part)).items() if times > 1]
            assert not repeated, f"{kind} lists {repeated} more than once"


@cache
def _ville_places() -> list[str]:
    """The Ville's own names: its sectors ("Hobbs Cafe") and its objects of several words ("behind the cafe counter").

    Kinds of place in general ("a kitchen", "a park") are how a prompt explains places; a place of the Ville named in
    an example is what a model copies (the action prompt's only example was the party's venue).
    """
    ville = load_ville(DATA_DIR / "the_ville")
    names = set(ville.sectors())
    for sector in ville.sectors():
        for arena in ville.arenas(sector):
            names.update(name for name in ville.objects(sector, arena) if " " in name)
    return sorted(names)


@pytest.mark.parametrize("template", sorted(path.name for path in PROMPTS.glob("*.txt")))
def test_no_template_names_a_place_of_the_ville(template):
    text = (PROMPTS / template).read_text()
    named = [place for place in _ville_places() if re.search(rf"\b{re.escape(place)}\b", text, re.IGNORECASE)]
    assert not named, f"{template} names {named}: use a placeholder or an off-map example"


def test_no_template_pushes_news():
    """The original asks for what the character would say; "pass on news" made every talk a news exchange."""
    for path in PROMPTS.glob("*.txt"):
        assert not re.search(r"pass(es)? on (the )?news", path.read_text(), re.IGNORECASE), path.name


@pytest.mark.parametrize("kind", SIMULATION_KINDS)
def test_the_offline_answer_meets_the_schema_sent_with_the_prompt(kind):
    for request in asked()[kind][:20]:
        schema = request.answer_schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(json.loads(offline_answer(request, seed=0)), schema)
        if isinstance(request, ScoredRequest):
            assert "scores" in schema["required"]
