"""Run the fault campaign (tests/smallville/test_faults_*.py, slow ones too) and count what it found.

Usage: .venv/bin/python scripts/fault_campaign.py [-n WORKERS]

The counts are the issue's figures, taken from what happened rather than written by hand:
- cases: the campaign's test cases pytest collected, and how many passed, failed or were skipped (its JUnit XML);
- refusals: every command a case expected to refuse (the ones checked by `one_line`; the read-only folder's
  writes, the second writer, the stalled and the dying model server), as the command itself ended, from the log
  tests/smallville/fault_log.py keeps: how many ended in one error line with a non-zero exit, how many printed a
  traceback, and how many were silent (exit 0);
- exact resumes: the runs whose model server was killed at each of the five moments and that resumed to the same
  events, metrics and final checkpoint as a run whose model never died (test_faults_dying_model.py).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "smallville").glob("test_faults_*.py"))
EXACT_RESUME = "test_a_run_whose_model_dies_resumes_exactly_at_a_new_server"


def error_lines(entry: dict) -> list[str]:
    """The lines a refusal printed; after a run's or a batch's progress lines, only its `error:`/`stopped:` lines."""
    lines = [line for line in entry["err"].splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("error:", "stopped:"))]
    return errors if errors and len(errors) < len(lines) else lines


def kind(entry: dict) -> str:
    """How a refusal ended: a traceback, silent (exit 0), one line, or several lines."""
    if "Traceback" in entry["err"]:
        return "traceback"
    if entry["code"] == 0:
        return "silent"
    return "one line" if len(error_lines(entry)) == 1 else "several lines"


def outcomes(junit: Path) -> tuple[Counter, Counter, Counter]:
    """(all cases by outcome, cases by file, exact-resume cases by outcome) from pytest's JUnit XML."""
    cases, files, resumes = Counter(), Counter(), Counter()
    for case in ET.parse(junit).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        cases[outcome] += 1
        files[case.get("classname", "").rsplit(".", 1)[-1]] += 1
        if case.get("name", "").startswith(EXACT_RESUME):
            resumes[outcome] += 1
    return cases, files, resumes


def main() -> int:
    """Run the campaign, print its counts; exit as pytest did (0 when every case passed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--workers", default="2", help="pytest-xdist workers (default 2; 0 for none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        log, junit = Path(scratch) / "refusals.jsonl", Path(scratch) / "junit.xml"
        command = [sys.executable, "-m", "pytest", *FILES, "-m", "slow or not slow", "-q", "-p", "no:cacheprovider",
                   "-n", args.workers, f"--junitxml={junit}"]  # fmt: skip
        started = time.monotonic()
        run = subprocess.run(command, cwd=ROOT, env={**os.environ, "FAULT_CAMPAIGN_LOG": str(log)}, check=False)
        minutes = (time.monotonic() - started) / 60
        cases, files, resumes = outcomes(junit)
        refusals = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    kinds = Counter(kind(entry) for entry in refusals)
    load = os.getloadavg()
    report = [
        f"fault campaign: {sum(cases.values())} cases in {len(files)} files",
        f"  {', '.join(f'{name} {count}' for name, count in sorted(files.items()))}",
        f"  passed {cases['passed']}, failed {cases['failed']}, skipped {cases['skipped']}",
        f"  refusals provoked: {len(refusals)} (in {len({entry['test'] for entry in refusals})} cases): "
        f"one-line errors {kinds['one line']}, tracebacks {kinds['traceback']}, silent {kinds['silent']}, "
        f"several lines {kinds['several lines']}",
        f"  model server killed at {sum(resumes.values())} moments: resumed exactly {resumes['passed']}",
        f"  {minutes:.1f} min with {args.workers} workers, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}",
    ]
    for entry in (entry for entry in refusals if kind(entry) != "one line"):
        report.append(f"  ! {entry['test']}: {' '.join(entry['argv'])} -> exit {entry['code']}")
    sys.stdout.write("\n".join(report) + "\n")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
