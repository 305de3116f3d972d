"""Why a model cannot run a town, in one line with its fix: the cause read from the failures a model check met.

A check whose every kind was refused the same way (a bad key, an unknown model) has one cause, not sixteen: the
closing line names it (authentication, unknown model, unreachable, refused form or parameter, timeouts, a missing
library, answers that do not parse) and what to do about it.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    """A reason a model cannot run a town, the words that find it in a failure, and the fix."""

    name: str
    pattern: str
    fix: str


# Tried in order: the first whose pattern is found in a failure's text names its cause.
CAUSES = (
    Cause("a missing library", r"needs the Python package", "install the package named above"),
    Cause(
        "authentication",
        r"HTTP 40[13]\b|AuthenticationError|PermissionDenied|invalid.{0,20}(api.?key|x-api-key)|incorrect api key",
        "check the API key in the provider's environment variable (e.g. OPENAI_API_KEY), never on the command line",
    ),
    Cause(
        "unknown model",
        r"HTTP 404\b|NotFoundError|model.{0,40}(not found|does not exist)|no such model",
        "check the model's litellm name (e.g. openai/gpt-5.4-mini) and --api-base",
    ),
    Cause(
        "unreachable server",
        r"could not reach",
        "start the model server, or correct --api-base (scheme, host, port, /v1) and the network",
    ),
    Cause(
        "timeouts",
        r"Timeout|timed out",
        "the server did not answer within --timeout: check that it is not stuck or overloaded, or raise --timeout",
    ),
    Cause(
        "a refused form or parameter",
        r"does not accept the parameter|response_format|json_schema|schema|Unsupported parameter",
        "run with --no-structured-output (the prompt alone asks for JSON), or pick a model that takes the form",
    ),
    Cause(
        "answers that do not parse",
        r"fell back",
        "the model's answers did not fit the requests even after a repair: try a larger model",
    ),
)
# When no pattern is found.
UNKNOWN = Cause("a failure", "", "see the notes above; the server's own log may say more")


def cause_of(failures: list[str]) -> Cause:
    """The cause of the most failures (ties: the earlier in CAUSES), from their texts."""
    counts: dict[Cause, int] = {}
    for text in failures:
        cause = next((cause for cause in CAUSES if re.search(cause.pattern, text, re.IGNORECASE)), UNKNOWN)
        counts[cause] = counts.get(cause, 0) + 1
    if not counts:
        return UNKNOWN
    order = {cause: index for index, cause in enumerate((*CAUSES, UNKNOWN))}
    return max(counts, key=lambda cause: (counts[cause], -order[cause]))


def stops_the_check(text: str) -> bool:
    """Whether a refusal will meet every kind alike (key, model name, library, server), so asking more is waste."""
    return cause_of([text]) in CAUSES[:4]
