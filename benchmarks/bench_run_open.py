"""What opening a run folder costs: the cheap check every read makes against the full one (digests of every row).

Every read of a run folder used to recompute the digests of all the rows its checkpoint covers (runs/identity.py);
now only resume and the other writers, fork and report do, and a replay, compare or read-only interview checks the
checkpoint's checksum, the files' run ids and their row counts. Prints the median of --repeats reads each way, for
the folder given or a 25-agent offline day simulated first (about 2 minutes on 2 cores).

    .venv/bin/python benchmarks/bench_run_open.py [--run RUN_FOLDER] [--repeats 5]
"""

import argparse
import tempfile
from pathlib import Path

from timing import median_seconds

from smallville.cli import main as cli
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import read_snapshot
from smallville.runs.store import RunStore


def measure(run: Path, repeats: int) -> None:
    """Print the cheap and the full check of `run`, bare and through RunStore.open (as the commands open it)."""
    folder = RunFolder(run)
    state = read_snapshot(folder).state
    memories = sum(state["stream_lengths"].values())
    print(f"{run}: {state['events']} events, {state.get('calls') or 0} calls, {memories} memories")
    rows = {
        "read_snapshot, cheap (replay, compare)": lambda: read_snapshot(folder),
        "read_snapshot, full (resume, fork, report)": lambda: read_snapshot(folder, full=True),
        "RunStore.open, read only (interview, evaluate)": lambda: RunStore.open(run).close(),
        "RunStore.open, full (as every read did before)": lambda: RunStore.open(run, full_check=True).close(),
    }
    for label, read in rows.items():
        print(f"{label:48} {median_seconds(read, repeats):7.3f} s (median of {repeats})")


def main() -> None:
    """Measure the folder given, or a simulated 25-agent day."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, help="a run folder (default: simulate a 25-agent day first)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.run is not None:
        measure(args.run, args.repeats)
        return
    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder) / "run"
        assert cli(["simulate", "--embedder", "hashing", "--days", "1", "--out", str(run)]) == 0
        measure(run, args.repeats)


if __name__ == "__main__":
    main()
