"""How important a memory is to the offline mind, from the shape of the sentence, never from its topic.

A language model rates poignancy from what a memory means; the offline mind cannot, and a list of topics ("party",
"running for") would rate the scenario's tracked news above any paraphrase of it. So it reads only generic features
of the sentence, each a closed class of English words or a form any news can take:
- an idle object or sleep: the paper's anchor of a 1;
- an observation of someone at what they do ("Maria Lopez is studying", "the desk is being used by ..."): routine;
- anything else (a thought, a plan, something told) starts higher, and gains for each of:
  a time ahead (tomorrow, next week, a weekday or a date, a clock time, "will", "going to", "plans to");
  other people involved (someone else named, or everyone, friends, neighbours, family, you, us...);
  speech (told, said, asked, heard, invited, announced);
  a feeling stated (love, hate, worried, excited, afraid...);
  a turn in someone's life or the town's, what makes news of any kind: harm and danger (a fire, an accident, someone
  hurt, ill or dead), life's beginnings and ends (a birth, a wedding, a break-up, a funeral), a home, a job or a
  place won or lost (moving away, fired, hired, a shop closing down) -- the closed classes of English words for
  events, none of them a party's or an election's;
  and, to the agent scoring it, closeness: a person or place its own persona names (itself, its workplace, those it
  knows), which is what the event means to it rather than to anyone.
Any news of the same shape scores the same, whatever its words; tests/agents/test_offline_generic.py holds a
paraphrase for every rule.
"""

import re

from agents.language.offline.words import FULL_NAME, MONTHS, WEEKDAYS

# The paper's mundane anchor: idle objects and sleep.
IDLE = ("is idle", "sleeping", "asleep", "in bed")
# Someone seen at what they do: "Maria Lopez is ..." or an object's "the desk is being used by Maria Lopez".
_OBSERVED = re.compile(r"^(?:[A-Z][a-z]+ [A-Z][a-z]+ is |[^.;:]{1,60}? is being used by [A-Z][a-z]+ [A-Z][a-z]+\b)")
# A time ahead: words of the calendar and of the future tense.
FUTURE = re.compile(
    rf"\b(?:tomorrow|tonight|next \w+|upcoming|soon|later|this (?:weekend|evening|week|month)|will|'ll|"
    rf"going to|plans? (?:to|on)|planning|(?:on|this|next) (?:{WEEKDAYS.lower()})|(?:{MONTHS.lower()}) \d{{1,2}}|"
    r"(?:at|from|by|until) \d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}(?::\d\d)?\s*(?:am|pm))\b"
)
# Other people: someone named, or people in general, or the one spoken to.
_PEOPLE = re.compile(
    r"\b(?:everyone|everybody|anyone|someone|somebody|people|folks|friends?|neighbou?rs?|guests?|others|together|you|"
    r"your|us|we|famil(?:y|ies)|sisters?|brothers?|mother|father|mom|dad|parents?|sons?|daughters?|wife|"
    r"husband|kids|children|child|students?|residents?|customers?|patients?)\b"
)
# Speech: one person telling another.
SPEECH = re.compile(r"\b(?:told|tell|tells|telling|said|say|says|asked|ask|heard|invit\w*|announc\w*)\b")
# A feeling stated.
FEELING = re.compile(
    r"\b(?:love[sd]?|hate[sd]?|like[sd]? (?:him|her|them)|miss(?:es|ed)?|afraid|worried|excited|happy|sad|angry|"
    r"upset|nervous|proud|lonely|jealous|annoy\w*)\b"
)
# A turn in someone's life or the town's (see the module's docstring): harm and danger, life's turns, work and home.
EVENTFUL = re.compile(
    r"\b(?:fires?|blaze|burn(?:s|ed|ing|t)|flood(?:s|ed|ing)?|storm|earthquake|accident|crash(?:ed|es)?|collaps\w*|"
    r"explo(?:sion|ded)|injur\w*|hurt|wounded|bleeding|sick|ill|illness|hospital\w*|ambulance|emergenc\w*|died|"
    r"dies|dying|dead|death|passed away|funeral|killed|murder\w*|stolen|robbed|robbery|burglar\w*|broke into|"
    r"arrest\w*|police|missing|danger\w*|born|birth|pregnan\w*|baby|married|marr(?:y|ies)|wedding|engaged|"
    r"engagement|divorc\w*|broke up|break(?:s|ing)? up|breakup|retir\w*|graduat\w*|fired|laid off|"
    r"lost (?:my|her|his|their|a|the|our) (?:job|home|house|shop|business)|quit|hired|promot\w*|"
    r"clos(?:es|ed|ing) (?:down|for good)|shut(?:s|ting)? down|out of business|bankrupt\w*|"
    r"mov(?:es|ed|ing) (?:away|out)|evict\w*)\b"
)
# Scores: the base of each shape, and what each feature adds (a 10 is left to a language model).
IDLE_SCORE, OBSERVED_SCORE, STATEMENT_SCORE, HIGHEST = 1, 2, 3, 9
FUTURE_GAIN, OTHERS_GAIN, SPEECH_GAIN, FEELING_GAIN, EVENT_GAIN, CLOSE_GAIN = 2, 1, 1, 1, 3, 1


def close_names(persona: str) -> frozenset[str]:
    """The people and places a persona's own text names (itself, its workplace, those it knows)."""
    return frozenset(FULL_NAME.findall(persona))


def importance_of(text: str, close: frozenset[str] = frozenset()) -> int:
    """1 (mundane) to 9 (poignant), from the sentence's shape and features (see the module's docstring).

    `close` holds the names the scoring agent's persona names (`close_names`): a memory naming one of them means
    more to it. Without them the score is anyone's.
    """
    lower = text.lower()
    if any(word in lower for word in IDLE):
        return IDLE_SCORE
    observed = _OBSERVED.match(text)
    rest = text[observed.end() :] if observed else text
    score = OBSERVED_SCORE if observed else STATEMENT_SCORE
    others = FULL_NAME.search(rest) or _PEOPLE.search(rest.lower())
    score += FUTURE_GAIN * bool(FUTURE.search(lower)) + OTHERS_GAIN * bool(others)
    score += SPEECH_GAIN * bool(SPEECH.search(lower)) + FEELING_GAIN * bool(FEELING.search(lower))
    score += EVENT_GAIN * bool(EVENTFUL.search(lower))
    score += CLOSE_GAIN * any(name in close for name in FULL_NAME.findall(text))
    return min(HIGHEST, score)
