"""The fault campaign's refusals: `one_line` checks one, and `record` keeps it for scripts/fault_campaign.py to count.

`one_line` runs the CLI and checks the refusal itself (its exit code, one line, no traceback); it also hands what the
command did (its arguments, exit code and standard error) to `record`, which appends it as one JSON line to the file
named by the environment variable FAULT_CAMPAIGN_LOG, when set. The script then counts the outcomes from what was
printed, not from the tests' verdicts: one-line errors, tracebacks, and refusals that were not made (exit 0).
"""

import json
import os

from smallville.cli import main

LOG = "FAULT_CAMPAIGN_LOG"


def record(argv: list[str], code: int, err: str) -> None:
    """Append one command's outcome to the campaign's log (a no-op outside scripts/fault_campaign.py)."""
    path = os.environ.get(LOG)
    if not path:
        return
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
    line = json.dumps({"test": test, "argv": [str(arg) for arg in argv], "code": code, "err": err})
    with open(path, "a", encoding="utf-8") as log:  # one write per line: the two workers' lines do not interleave
        log.write(line + "\n")


def one_line(capsys, argv: list[str], code: int, *, after_progress: bool = False) -> str:
    """Run the CLI; check its exit code and that it printed exactly one line (no traceback); return that line.

    With `after_progress` the command may have printed progress before its error: exactly one line is the error.
    """
    result = main(argv)
    err = capsys.readouterr().err
    record(argv, result, err)
    lines = [line for line in err.splitlines() if line.strip()]
    if after_progress:
        lines = [line for line in lines if line.startswith("error:")]
    assert result == code, err
    assert "Traceback" not in err
    assert len(lines) == 1, err
    return lines[0]
