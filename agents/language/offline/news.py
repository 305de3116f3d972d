"""What a memory holds as news, the way a person would pass it on: each piece alone, without who told whom."""

import re

# A greeting and the name it greets: "Hi Maria! " (what the opening line starts with).
GREETING = re.compile(r"^(?:hi|hello|hey)\b[^!.?]{0,40}[!.?]?\s*", re.IGNORECASE)
# An insight's subject, "About Maria Lopez:" (offline/thinking.py writes it).
ABOUT = r"About [^:]{1,80}:"
# Where a memory says it came from, never the news itself: an insight's "About X:", a takeaway's "X told me:",
# a chat memory's "conversation with X:" and its summary's "A and B talked about". The memory formats are the
# project's own (conversing.py, talk.py, thinking.py); stripped, news is passed on as said, not as a chain of
# who told whom.
_PROVENANCE = re.compile(
    rf"^(?:{ABOUT}|"
    r"[A-Z][\w'-]* [A-Z][\w'-]* told me:|conversation with [^:]{1,80}:|"
    r"[A-Z][\w'-]* [A-Z][\w'-]* and [A-Z][\w'-]* [A-Z][\w'-]* talked about)\s*"
)
# Clauses of a memory: insights and takeaways join several pieces of news with "; ".
_CLAUSES = re.compile(r";\s+")
# Longest piece of news (characters): a line is "one or two sentences", as the request asks, and an insight one.
LONGEST_NEWS = 160


def news_in(memory: str) -> list[str]:
    """The pieces of news a memory holds, each without where it came from and cut to a sentence's length.

    "About Eddy Lin: Eddy Lin told me: the fair opens at noon; Eddy Lin is cooking" holds "the fair opens at noon"
    and "Eddy Lin is cooking".
    """
    found = []
    for clause in _CLAUSES.split(memory):
        stripped = clause.strip()
        while (bare := _PROVENANCE.sub("", stripped, count=1)) != stripped:
            stripped = bare.strip()
        stripped = GREETING.sub("", stripped)
        if len(stripped) > LONGEST_NEWS:
            stripped = stripped[:LONGEST_NEWS].rsplit(" ", 1)[0]
        if len(stripped.split()) > 2:
            found.append(stripped.rstrip(" ,;:"))
    return found
