"""Whether two run folders hold the same results: their events.sqlite rows, events and calls, compared one by one.

A change for speed must not change what the town does. Run the same `simulate` before and after it (same seed,
scenario and end) and compare: every event row, and every call row but its latency (wall time, never the same).

    .venv/bin/python benchmarks/same_rows.py RUN_BEFORE RUN_AFTER [RUN_BEFORE RUN_AFTER ...]

Prints each pair's row counts and the first row that differs; exits 1 if any pair differs.
"""

import sqlite3
import sys
from pathlib import Path

# Every column of the calls table but the wall time a call took.
CALL_COLUMNS = (
    "id, agent, kind, model, calls, prompt_tokens, completion_tokens, cost, cache_hit, retries, repaired, fallback, "
    "cached_tokens, answer_format, reasoning_tokens, empty_answers, cut_answers"
)
QUERIES = {"events": "SELECT * FROM events ORDER BY id", "calls": f"SELECT {CALL_COLUMNS} FROM calls ORDER BY id"}


def rows(run: Path, table: str) -> list[tuple]:
    """One table's rows of a run folder's events.sqlite, in order."""
    with sqlite3.connect(f"file:{run / 'events.sqlite'}?mode=ro", uri=True) as connection:
        return connection.execute(QUERIES[table]).fetchall()


def compare(before: Path, after: Path) -> bool:
    """Print how the two runs' rows compare; whether they are the same."""
    same = True
    for table in QUERIES:
        old, new = rows(before, table), rows(after, table)
        first_difference = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
        if first_difference is None and len(old) == len(new):
            print(f"{before} -> {after}: {table} the same ({len(old):,} rows)")
            continue
        same = False
        print(f"{before} -> {after}: {table} DIFFER ({len(old):,} against {len(new):,} rows)")
        if first_difference is not None:
            print(f"  first difference, row {first_difference}:\n  {old[first_difference]}\n  {new[first_difference]}")
    return same


def main() -> None:
    runs = [Path(argument) for argument in sys.argv[1:]]
    if not runs or len(runs) % 2:
        sys.exit(__doc__)
    results = [compare(before, after) for before, after in zip(runs[::2], runs[1::2], strict=True)]
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
