"""How important a memory is to the offline mind, by generic rules that single out no particular news.

A language model rates poignancy from the text; the offline mind approximates it with the shape of the memory:
what happens to people (loss, love, conflict), invitations of any kind, changes in someone's life, gatherings,
plans that involve others, what is new, and who is named. Routine (sleep, chores, meals, work) scores low. A piece
of news scores by these rules whatever its words, so any news travels as far as another of the same shape.
"""

import re

# Ordinary activities, from the dullest (idle objects and sleep) to the working day.
IDLE = ("is idle", "sleeping", "asleep", "in bed")
ROUTINE = (
    (2, ("brush", "shower", "dress", "bathroom", "clean", "wash", "routine", "getting ready", "tidying")),
    (2, ("eat", "breakfast", "lunch", "dinner", "coffee", "walk", "read", "shop", "cook", "relax", "music")),
    (3, ("work", "study", "studying", "class", "writing", "paint", "research", "teach", "customers", "serving")),
)  # fmt: skip
# What happens to people: the paper's examples of a 10 (a break-up, a college acceptance) and their kin.
POIGNANT = re.compile(
    r"\b(died|death|funeral|in love|crush|break-?up|broke up|married|wedding|divorce|pregnant|accident|a fire|"
    r"fight|argument|hospital|accepted|was fired)\b"
)
# Someone asks others to take part: an invitation of any kind.
INVITATION = re.compile(r"\b(invit\w*|join (?:me|us|them)|come (?:to|over|along)|welcome to|would you like to)\b")
# A change in someone's life or role, or news told as such.
CHANGE = (
    "news", "announce", "running for", "elected", "new job", "moving", "moved", "engaged", "promoted", "quit",
    "opening", "opened", "starting a", "started a", "launch", "retir", "decided", "secret", "won", "award",
)  # fmt: skip
# Occasions people gather for.
GATHERING = ("party", "celebrat", "gathering", "meeting", "festival", "concert", "fair", "exhibition", "game night",
             "potluck", "ceremony", "show", "event")  # fmt: skip
# A plan: something set for later.
FUTURE = re.compile(
    r"\b(tomorrow|tonight|next \w+|this (?:weekend|evening)|will|going to|plans? to|planning|wants? to|hopes? to|"
    r"on (?:monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|"
    r"october|november|december)|at \d{1,2}(?::\d\d)?\s*(?:am|pm))\b"
)
# Others involved: a person named, or people in general.
OTHERS = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b|\b(?:everyone|friends|neighbou?rs|people|together)\b")
# Someone seen at what they do: "Maria Lopez is ..." or an object's "the desk is being used by Maria Lopez".
_OBSERVED = re.compile(r"^(?:[A-Z][a-z]+ [A-Z][a-z]+ is |[^.;:]{1,60}? is being used by [A-Z][a-z]+ [A-Z][a-z]+\b)")
NOVEL = ("first time", "new ", "never", "surpris", "unusual", "strange", "exciting", "excited")
TALK = ("conversation", "said", "told", "learned", "heard", "asked")


def importance_of(text: str) -> int:
    """1 (mundane) to 9 (poignant), the highest rule the memory meets."""
    lower = text.lower()
    if any(word in lower for word in IDLE):
        return 1
    involves_others = bool(OTHERS.search(text))
    # "Maria Lopez is studying", "the desk is being used by Maria Lopez": an observation of someone at their routine
    # names them without involving them.
    names_others = bool(OTHERS.search(_OBSERVED.sub("", text, count=1)))
    plan = bool(FUTURE.search(lower))
    scores = [next((score for score, words in ROUTINE if any(word in lower for word in words)), 2)]
    rules = (
        (9, bool(POIGNANT.search(lower))),
        (8, bool(INVITATION.search(lower))),
        (7, any(word in lower for word in CHANGE)),
        (7, plan and involves_others),
        (6, any(word in lower for word in GATHERING)),
        (6, any(word in lower for word in NOVEL)),
        (5, plan or any(word in lower for word in TALK)),
        (4, names_others),
    )
    scores += [score for score, applies in rules if applies]
    return max(scores)
