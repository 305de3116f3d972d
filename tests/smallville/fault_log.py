"""The fault campaign's record of every refusal it provokes, for scripts/fault_campaign.py to count.

`one_line` (test_faults_inputs.py) checks each refusal itself; it also hands what the command did (its arguments,
exit code and standard error) to `record`, which appends it as one JSON line to the file named by the environment
variable FAULT_CAMPAIGN_LOG, when set. The script then counts the outcomes from what was printed, not from the
tests' verdicts: one-line errors, tracebacks, and refusals that were not made (exit 0).
"""

import json
import os

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
