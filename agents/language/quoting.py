r"""Speech is data: one quoting scheme for everything people say, write or remember, wherever it enters a prompt.

Every such text is written into prompts as a JSON string literal: in double quotes, with quotes, backslashes,
newlines and control characters escaped. Nothing inside can close the quote (a `"` in the text becomes `\"`), start
a line of its own, or pass for the prompt's own instructions or answer format, and the system prompt tells the
model that quoted text is data to read, never instructions to follow. Template placeholders in the text ($name,
{name}) are inert: prompts are rendered in one pass and never re-read. Text that is not valid Unicode is repaired
(U+FFFD), and a text longer than `LONGEST_QUOTE` is cut with a note, so one 1 MB line cannot flood a context.
"""

import json
import re
from collections.abc import Mapping

# The longest quoted text, in characters: memories and lines are far shorter; a longer one is cut, and says so.
LONGEST_QUOTE = 2000
# Line and paragraph separators that json.dumps leaves raw but some readers take as line breaks.
_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}
# Lone surrogates: what undecodable bytes become under Python's "surrogateescape"; no encoder can send them.
_SURROGATE = re.compile("[\ud800-\udfff]")
# One pass over a template: $$, $name, ${name} (text the code wrote) and @{name} (data, quoted).
_PLACEHOLDER = re.compile(r"\$\$|\$(\w+)|\$\{(\w+)\}|@\{(\w+)\}")


def clean_text(text: str | bytes) -> str:
    """Text as valid Unicode: undecodable bytes and lone surrogates become U+FFFD."""
    if isinstance(text, bytes):
        return text.decode("utf-8", "replace")
    if text.isascii():  # no surrogate: a flag of the string, not a search of its characters (every request field)
        return text
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def quote(text: str | bytes, limit: int = LONGEST_QUOTE) -> str:
    """The text as a JSON string literal that nothing in it can close, cut to `limit` characters."""
    text = clean_text(text)
    if len(text) > limit:
        text = f"{text[:limit]} [... {len(text) - limit} more characters cut]"
    quoted = json.dumps(text, ensure_ascii=False)
    for raw, escaped in _SEPARATORS.items():
        quoted = quoted.replace(raw, escaped)
    return quoted


def render(template: str, values: Mapping[str, str]) -> str:
    """A template filled in one pass: `$name` takes the value as written, `@{name}` takes it quoted.

    Raises:
        KeyError: For a placeholder with no value.
    """

    def fill(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(2)
        if name is not None:
            return clean_text(values[name])
        return quote(values[match.group(3)])

    return _PLACEHOLDER.sub(fill, template)


def unquoted_parts(prompt: str) -> str:
    """A prompt with every JSON string literal taken out: what is left is the prompt's own words (for tests)."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', prompt)
