"""A sentence about oneself in one's own voice: what the agent keeps of a whisper or a seed, and says of itself.

The agent keeps "Latoya Williams is excited to ..." (a whisper that names it) as "I am excited to ...", whichever model
answers its requests; the offline mind says its own news the same way.
"""

import re

from agents.language.english.morphology import ADVERB, is_verb_after_name, verb_after_i
from agents.language.patterns import compiled_pattern

# The verb of a later clause of a sentence about oneself: "Sam Moore goes to bed at 9pm, eats dinner at 5pm".
_LATER_VERB = re.compile(
    r"(,(?: and)?(?: then)?) ([a-z]+s)\b|(\band) ([a-z]+s)\b(?= (?:up|with|a|an|the|my|to|in|at|on|for)\b)"
)


def own_voice(sentence: str, me: str) -> str:
    """A sentence about oneself, as one says it: "Eddy Lin is cooking" said by Eddy Lin is "I am cooking".

    Later mentions too (third_person names a later "I" by the first name): "Eddy's" is "my", "Eddy" before a verb
    "I", elsewhere "me" ("Maria Lopez is waiting for me"); a pair puts the other first ("Maria Lopez and I are").
    """
    mine = re.escape(me)  # patterns of a name compiled once (compiled_pattern): re's own cache holds 512
    if pair := compiled_pattern(rf"{mine} (and|or) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*) (?=[a-z])").match(sentence):
        sentence = f"{pair.group(2)} {pair.group(1)} I {sentence[pair.end() :]}"
    elif start := compiled_pattern(rf"{mine} ((?:{ADVERB} )*)(\S+)").match(sentence):
        sentence = f"I {start[1]}{verb_after_i(start[2])}{sentence[start.end() :]}"
        sentence = _LATER_VERB.sub(lambda m: f"{m[1] or m[3]} {verb_after_i(m[2] or m[4])}", sentence)
    first = me.split(maxsplit=1)[0]
    namesakes = {m for m in compiled_pattern(rf"\b{re.escape(first)} [A-Z][a-z]+").findall(sentence) if m != me}
    # The first name alone is the speaker's unless someone else of that first name is named in the sentence.
    alone = "" if namesakes else rf"|{re.escape(first)}(?! [A-Z])"
    named = compiled_pattern(rf"\b(?:{mine}{alone})(?:('s)\b|( [A-Za-z']+))?")

    def said_by_me(match: re.Match) -> str:
        before = sentence[: match.start()].rstrip()
        start = not before or before.endswith((".", "!", "?", ":"))
        owned, after = match.group(1), match.group(2)
        if owned:
            return "My" if start else "my"
        if after and is_verb_after_name(after.strip()):
            return f"I {verb_after_i(after.strip())}"
        return ("Me" if start else "me") + (after or "")

    return named.sub(said_by_me, sentence)
