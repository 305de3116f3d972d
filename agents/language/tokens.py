"""Token counts offline, as a named reference model's tokenizer counts them, without fetching anything.

The reference is gpt-4o-mini's `o200k_base` encoding, read by tiktoken from the files litellm ships in its wheel
(litellm points TIKTOKEN_CACHE_DIR at them), so nothing is downloaded at run time. If those files are not there,
counts fall back to four characters a token, and `TOKENIZER` says so. Providers' own counts, where they report
usage, always win over these estimates.
"""

import itertools
import logging
import os
from functools import cache, lru_cache
from hashlib import sha1
from importlib.util import find_spec
from pathlib import Path

logger = logging.getLogger(__name__)

REFERENCE_MODEL = "gpt-4o-mini"
ENCODING = "o200k_base"
ENCODING_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
# Longer texts are counted by extrapolating from their first part: a 1 MB line must not stall a run.
LONGEST_COUNTED = 200_000
# Texts whose counts are kept. Each request kind's system prompt comes back at every call: on the offline day counting
# took about 11% of the town's thread, and 1,703 of its 4,236 counts are now found here (the long prompts stay unique).
COUNTS_KEPT = 256
# Lines whose counts are kept. A 1,000-person town's prompts (a system prompt per person, 5 kB) overflow the texts
# kept above, but they are made of the same lines again and again: counting each line once halved the counting of
# the town's first step (1.7 s -> 0.9 s of CPU over its 18,000 counts).
LINES_KEPT = 1 << 16
LONGEST_LINE_KEPT = 2_000  # longer lines are counted each time: the lines kept stay under 130 MB


def _bundled_folder() -> Path | None:
    """The folder of of tiktoken files, found without importing litellm (3 s)."""
    spec = find_spec("litellm")
    folder = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers" if spec and spec.origin else None
    return folder if folder is not None and folder.is_dir() else None


def _cached(folder: Path) -> bool:
    """Whether tiktoken would find the reference encoding in a folder (it names files by the sha1 of their URL)."""
    return (folder / sha1(ENCODING_URL.encode()).hexdigest()).is_file()


@cache
def _encoding():
    """The reference encoding, from local files only, or None (then 4 characters a token)."""
    try:
        folder = _bundled_folder()
        if folder is not None:
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(folder))  # what litellm itself sets on import
        chosen = os.environ.get("TIKTOKEN_CACHE_DIR")
        if not chosen or not _cached(Path(chosen)):
            logger.info("tiktoken's %s is not on this machine; counting 4 characters a token", ENCODING)
            return None
        import tiktoken  # noqa: PLC0415

        return tiktoken.get_encoding(ENCODING)
    except Exception as error:  # a tokenizer is a nicety: never a crash
        logger.info("no local tokenizer (%s); counting 4 characters a token", error)
        return None


def tokenizer_name() -> str:
    """What counts tokens offline: the reference encoding, or the 4-characters rule."""
    return f"{REFERENCE_MODEL} ({ENCODING})" if _encoding() is not None else "4 characters a token"


def count_tokens(text: str) -> int:
    """Tokens of a text for the reference model (at least 1)."""
    encoding = _encoding()
    if encoding is None or not text:
        return max(1, len(text) // 4)
    return _counted(encoding, text)


@lru_cache(maxsize=COUNTS_KEPT)
def _counted(encoding, text: str) -> int:
    head = text[:LONGEST_COUNTED]
    counted = sum(
        _counted_line(encoding, line) if len(line) <= LONGEST_LINE_KEPT else len(encoding.encode_ordinary(line))
        for line in _lines(head)
    )
    if len(text) > len(head):
        counted = round(counted * len(text) / len(head))
    return max(1, counted)


def _lines(text: str) -> list[str]:
    r"""The text cut after each newline followed by neither whitespace nor "/": lines counted apart, the same total.

    The encoding's pre-tokenizer (which BPE never crosses) always splits there: only a run of whitespace, or
    punctuation followed by newlines and slashes (`[\r\n/]*`), holds a newline, and none of its patterns looks
    behind. The cut is made by str.split, not by the pattern `(?<=\n)(?=[^\s/])`, which looks behind at every
    character (0.6 s over the 30 MB of text of the 1,000-person town's first step, 0.2 s here).
    tests/agents/language/test_token_lines.py checks that both cut alike and that the sums are the texts' counts.
    """
    pieces = text.split("\n")
    lines = [pieces[0]]
    for piece in itertools.islice(pieces, 1, None):
        if piece and not piece[0].isspace() and piece[0] != "/":
            lines[-1] += "\n"
            lines.append(piece)
        else:
            lines[-1] += "\n" + piece
    return lines


@lru_cache(maxsize=LINES_KEPT)
def _counted_line(encoding, line: str) -> int:
    """Tokens of a piece of text, special tokens' names counted as plain text (as `encode(disallowed_special=())`)."""
    return len(encoding.encode_ordinary(line))
