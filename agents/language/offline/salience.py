"""How important a memory is to the offline mind, from the shape of the sentence, never from its topic.

A list of topics ("party", "running for") would rate the scenario's tracked news above any paraphrase of it, so the
offline mind reads only generic features, each a closed class of English words or a form any news can take:
- an idle object or sleep: the paper's anchor of a 1; someone seen at what they do ("Maria Lopez is studying"): 2;
- anything else (a thought, a plan, something told) starts higher, and gains for each of: a time ahead (tomorrow,
  a weekday or a date, a clock time, "will", "plans to"); other people involved (someone else named, or everyone,
  friends, family, you, us...); speech (told, said, asked, invited); a feeling stated (love, worried, excited...);
  a turn in a life or the town (a fire, someone hurt, a birth, fired, a shop closing down: event words, none a party's
  or an election's); and closeness: a person or place the agent's own persona names.
News of the same shape scores the same, whatever its words (tests/agents/test_offline_generic.py, a pair a rule).
"""

import re

from agents.language.english.words import FULL_NAME, MONTHS, WEEKDAYS

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
    r"\b(?:everyone|everybody|anyone|someone|people|folks|friends?|neighbou?rs?|guests?|others|together|you|your|us|"
    r"we|famil(?:y|ies)|sisters?|brothers?|mother|father|parents?|sons?|daughters?|wife|husband|kids|child\w*|students?)\b"
)
# Speech: one person telling another.
SPEECH = re.compile(r"\b(?:told|tell|tells|telling|said|say|says|asked|ask|heard|invit\w*|announc\w*)\b")
# A feeling stated.
FEELING = re.compile(
    r"\b(?:love[sd]?|hate[sd]?|like[sd]? (?:him|her|them)|miss(?:es|ed)?|afraid|worried|excited|happy|sad|angry|"
    r"upset|nervous|proud|lonely|jealous|annoy\w*)\b"
)
EVENTFUL = re.compile(
    r"\b(?:fires?|blaze|burn(?:s|ed|ing|t)|flood\w*|storm|earthquake|accident|crash\w*|collaps\w*|explo(?:sion|ded)|"
    r"injur\w*|hurt|wounded|sick|ill|illness|hospital\w*|ambulance|emergenc\w*|died|dies|dying|dead|death|funeral|"
    r"killed|murder\w*|stolen|robbe\w*|burglar\w*|arrest\w*|police|missing|born|birth|pregnan\w*|baby|marri\w*|"
    r"wedding|engage[dm]\w*|divorc\w*|br[eo]ak\w* up|retir\w*|graduat\w*|fired|laid off|lost (?:my|her|his|their|a|the)"
    r" (?:job|home|house|shop)|quit|hired|promot\w*|clos(?:es|ed|ing) (?:down|for good)|shut\w* down|out of business|"
    r"bankrupt\w*|mov\w* (?:away|out)|evict\w*)\b"
)
# Scores: the base of each shape, and what each feature adds (a 10 is left to a language model).
IDLE_SCORE, OBSERVED_SCORE, STATEMENT_SCORE, HIGHEST = 1, 2, 3, 9
FUTURE_GAIN, OTHERS_GAIN, SPEECH_GAIN, FEELING_GAIN, EVENT_GAIN, CLOSE_GAIN = 2, 1, 1, 1, 3, 1


def importance_of(text: str, persona: str = "") -> int:
    """1 (mundane) to 9 (poignant), from the sentence's shape and features, to the agent `persona` describes."""
    lower = text.lower()
    if any(word in lower for word in IDLE):
        return IDLE_SCORE
    observed = _OBSERVED.match(text)
    rest = text[observed.end() :] if observed else text
    score = OBSERVED_SCORE if observed else STATEMENT_SCORE
    others = FULL_NAME.search(rest) or _PEOPLE.search(rest.lower())
    score += FUTURE_GAIN * bool(FUTURE.search(lower)) + OTHERS_GAIN * bool(others)
    score += SPEECH_GAIN * bool(SPEECH.search(lower)) + FEELING_GAIN * bool(FEELING.search(lower))
    close = {*FULL_NAME.findall(persona)} & {*FULL_NAME.findall(text)}  # names the agent's persona names
    score += EVENT_GAIN * bool(EVENTFUL.search(lower)) + CLOSE_GAIN * bool(close)
    return min(HIGHEST, score)
