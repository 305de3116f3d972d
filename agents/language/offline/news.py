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
    r"[A-Z][\w'-]* [A-Z][\w'-]* and [A-Z][\w'-]* [A-Z][\w'-]* talked(?: about|:))\s*"
)
# A note the persona data addresses to the planner, not something one says: "For planning, ..." and "In terms of
# your daily plans, ..." (the original's persona files).
_PLANNER_NOTE = re.compile(r"^(?:for planning|in terms of [\w ]{0,30}\bplans?),\s*", re.IGNORECASE)
# Emphasis marks a file may hold ("*Hobbs Cafe on February 14th*"): not said aloud.
_EMPHASIS = re.compile(r"\*+")
# Clauses of a memory: insights and takeaways join several pieces of news with "; ".
_CLAUSES = re.compile(r";\s+")
# Sentences of a clause (a full stop, "!" or "?" and a space).
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
# A piece of news holds whole sentences, a second one only while the two stay under this many characters (a line is
# "one or two sentences", as the request asks); a first sentence longer than that is kept whole, never cut.
LONGEST_NEWS = 200


def sentences(text: str) -> list[str]:
    """The sentences of a text, each whole."""
    return [sentence.strip() for sentence in _SENTENCES.split(text.strip()) if sentence.strip()]


def news_in(memory: str) -> list[str]:
    """The pieces of news a memory holds, each without where it came from, in whole sentences.

    "About Eddy Lin: Eddy Lin told me: the fair opens at noon; Eddy Lin is cooking" holds "the fair opens at noon"
    and "Eddy Lin is cooking".
    """
    found = []
    for clause in _CLAUSES.split(memory):
        stripped = clause.strip()
        while (bare := _PROVENANCE.sub("", stripped, count=1)) != stripped:
            stripped = bare.strip()
        stripped = _PLANNER_NOTE.sub("", GREETING.sub("", stripped))
        whole = sentences(stripped)
        piece = whole[0] if whole else ""
        if len(whole) > 1 and len(piece) + 1 + len(whole[1]) <= LONGEST_NEWS:
            piece = f"{piece} {whole[1]}"
        if len(piece.split()) > 2:
            found.append(piece.rstrip(" ,;:"))
    return found


def spoken(piece: str) -> str:
    """A piece of news as said aloud: without emphasis marks."""
    return _EMPHASIS.sub("", piece).strip()
