"""Counting a text line by line gives the whole text's count under the reference encoding, whatever the text."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.language.tokens import _encoding, _lines, count_tokens

ENCODING = _encoding()
# Where tokens.py may cut a text into lines counted apart (its note on the cut): the reference `_lines` must equal.
LINE_START = re.compile(r"(?<=\n)(?=[^\s/])")
pytestmark = pytest.mark.skipif(ENCODING is None, reason="the reference encoding is not on this machine")

# Newlines, every kind of whitespace the encodings' patterns know (and the separators \x1c-\x1f that Python calls
# whitespace and they do not), slashes and punctuation that may absorb newlines, letters, digits, contractions, and a
# special token's name (counted as plain text).
PIECES = ["\n", "\r\n", "\n\n", " ", "  ", "\t", "\x0b", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "/", "//", ".",
          ":", "- ", '"', "'s", "a", "Word", "ÉCOLE", "émile", "7", "2023", "<|endoftext|>", "日本", "🙂"]  # fmt: skip


def whole(text: str) -> int:
    return max(1, len(ENCODING.encode(text, disallowed_special=())))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_a_text_counted_by_lines_counts_as_the_whole_text(pieces):
    text = "".join(pieces)
    assert count_tokens(text) == (whole(text) if text else 1)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([*PIECES, "\n/", "\n ", "\n\t", "\n\x1c", "\nx"]), max_size=40))
def test_lines_are_cut_where_the_pattern_says(pieces):
    text = "".join(pieces)
    assert _lines(text) == LINE_START.split(text)


@pytest.mark.parametrize(
    "text",
    [
        "Plans:\n- wake up at 7:00 am\n- work at the cafe\n\n/ a slash line\n  indented\nend.\n",
        "a list,\n\n\n\nfar below\n",
        "one line with no newline at all",
        "ends with newlines\n\n",
    ],
    ids=["prompt-like", "blank lines", "one line", "trailing newlines"],
)
def test_prompt_shaped_texts_count_as_whole(text):
    assert count_tokens(text) == whole(text)
