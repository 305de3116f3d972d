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
    """
    first = me.split(maxsplit=1)[0]
    text = compiled_pattern(rf"^(?:{re.escape(me)}|{re.escape(first)}),\s+").sub("", statement.strip())
    return own_voice(to_first_person(text), me)
