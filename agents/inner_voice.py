"""A memory handed to an agent (a whisper, a seed) as the agent keeps it: in its own voice, whatever the door."""

import re

from agents.language.english.voice import own_voice
from agents.language.patterns import compiled_pattern
from agents.persona import to_first_person


def in_own_voice(statement: str, me: str) -> str:
    """The statement in the agent's first person: "You are excited to ..." and "Latoya Williams is ..." are "I am ...".

    The paper's whispers are in the second person; a user may as well name the agent, or address it first
    ("Latoya, you are ..."). Kept word for word, a second-person memory is retold by the agent to others as if about
    them, and a listener keeps it as "Latoya are excited".

    The patterns made from the agent's name are used only where they could match (both leave a text without its
    first name as it is): few seeds name their own agent, and a town of 1,000 compiled 4,000 of them at its start.
    """
    first = me.split(maxsplit=1)[0]
    text = statement.strip()
    if text.startswith(first):
        text = compiled_pattern(rf"^(?:{re.escape(me)}|{re.escape(first)}),\s+").sub("", text)
    said = to_first_person(text)
    return own_voice(said, me) if first in said else said
