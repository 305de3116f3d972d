"""Panel text as escaped HTML.

Not solara.Markdown: every Markdown element makes the page load KaTeX and Mermaid, and KaTeX is not in the
offline asset set (the server would try the CDN), and it would typeset the "$" of a cost as mathematics.
"""

from collections.abc import Iterable
from html import escape

from smallville.app.map_layout import emoji_words

# Panels are laid out in the page's flow and grow with what they hold: the page scrolls, never a small box inside it.
PANEL_STYLE = "padding: 4px 8px; font-size: 13px;"


def heading(text: str) -> str:
    """A panel section's title."""
    return f"<h4 style='margin: 8px 0 4px'>{escape(text)}</h4>"


def note(text: str) -> str:
    """A grey line: nothing to show yet."""
    return f"<p style='color: #757575; font-style: italic; margin: 2px 0'>{escape(text)}</p>"


def bullets(items: Iterable[str], css_class: str = "") -> str:
    """A list of items that are already HTML."""
    inner = "".join(f"<li>{item}</li>" for item in items)
    return f"<ul class='{css_class}' style='margin: 0; padding-left: 18px'>{inner}</ul>"


def table(headers: list[str], rows: Iterable[list[str]], css_class: str = "") -> str:
    """A compact table of plain-text cells (escaped here)."""
    head = "".join(f"<th style='text-align: left; padding: 1px 4px'>{escape(cell)}</th>" for cell in headers)
    body = "".join(
        "<tr>" + "".join(f"<td style='padding: 1px 4px'>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return (
        f"<table class='{css_class}' style='border-collapse: collapse; font-size: 12px'>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def emoji_html(emoji: str) -> str:
    """A pictogram, and its words in its place when the browser has no emoji font (the map sets `no-emoji`)."""
    if not emoji:
        return ""
    return f"<span class='emoji'>{escape(emoji)}</span> <span class='emoji-text'>({escape(emoji_words(emoji))})</span>"
