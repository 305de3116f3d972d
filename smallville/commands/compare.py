"""`run.py compare A B`: where two runs first differ and what changed, printed, with plots of both timelines.

Reads both folders at their last checkpoints (never takes a lock, never writes to their data files); the plots and a
Markdown summary go to --out (default: A/compare/<B's name>/).
"""

import argparse
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
from rich.console import Console
from rich.table import Table

from smallville.cli import UserError
from smallville.runs.compare import compare_runs, read_run
from smallville.runs.diagnosis import diagnose, explain
from smallville.runs.integrity import RunFolderError


def _cannot_write(out: Path, error: OSError) -> str:
    """One line: the file that cannot be written, the real cause (a missing folder, a file in the way, ...), the fix."""
    path = Path(error.filename or out)
    said = explain(path, error, "cannot be written")
    return said if diagnose(path, error) else f"{said}; give another --out"


def run(args: argparse.Namespace) -> int:
    """Print the comparison, then write the plots and the summary."""
    try:
        a, b = read_run(Path(args.a)), read_run(Path(args.b))
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if a.config.get("scenario_name") != b.config.get("scenario_name"):
        print(f"note: {a.name} and {b.name} are towns of different scenarios; their people may differ")
    out = Path(args.out) if args.out else a.folder.root / "compare" / b.name
    try:  # before anything is printed: a folder that cannot be written is the one line said
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(_cannot_write(out, error)) from error
    comparison = compare_runs(a, b)
    lines = summary_lines(comparison)
    console = Console(width=max(Console().width, 100), soft_wrap=True)
    for line in lines:
        console.print(line, markup=False, highlight=False)
    console.print(figures_table(comparison))
    try:
        written = write_plots(comparison, out)
        (out / "summary.md").write_text(markdown(comparison, lines, written))
    except OSError as error:
        raise UserError(_cannot_write(out, error)) from error
    print(f"plots and summary written to {out} ({', '.join(path.name for path in written)}, summary.md)")
    return 0


def _pairs(pairs: set) -> str:
    return "; ".join(" & ".join(sorted(pair)) for pair in sorted(pairs, key=sorted)) or "none"


def summary_lines(comparison) -> list[str]:
    """What a user reads first: where the runs part, then who knows, met and knows whom differently."""
    a, b = comparison.a, comparison.b
    lines = [f"A = {a.folder.root} (to {a.snapshot.now:%Y-%m-%d %H:%M}), B = {b.folder.root} "
             f"(to {b.snapshot.now:%Y-%m-%d %H:%M})"]  # fmt: skip
    at = comparison.differ_at
    if at is None:
        same = min(len(a.events), len(b.events))
        lines.append(f"the event logs agree on all {same} entries both hold: no difference while both ran")
    else:
        first_a, first_b = comparison.differing_entries()
        lines.append(f"first difference at {at} (event {comparison.first_difference + 1}):")
        for label, entry in (("A", first_a), ("B", first_b)):
            shown = f"{entry['time']} {entry['agent'] or '-'} {entry['kind']}: {entry['text']}" if entry else "(ended)"
            lines.append(f"  {label}: {shown}")
    lines.append(f"at {comparison.moment:%Y-%m-%d %H:%M}, the latest moment both reached:")
    for fact, (only_a, only_b, both) in comparison.knowing.items():
        lines.append(
            f"  knows {fact}: A {len(only_a) + len(both)}, B {len(only_b) + len(both)}"
            f" (only in A: {', '.join(sorted(only_a)) or 'none'}; only in B: {', '.join(sorted(only_b)) or 'none'})"
        )
    lines.append(f"  talked only in A: {_pairs(comparison.talked[0])}; only in B: {_pairs(comparison.talked[1])}")
    lines.append(f"  know each other only in A: {_pairs(comparison.ties[0])}; only in B: {_pairs(comparison.ties[1])}")
    return lines


def figures_table(comparison) -> Table:
    """The town's figures of both runs at the moment, and B minus A."""
    table = Table(title=f"at {comparison.moment:%Y-%m-%d %H:%M}")
    for column in ("figure", "A", "B", "B - A"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for name, (value_a, value_b) in comparison.figures.items():
        shown = "{:.3f}" if name in ("density", "cost") or name.startswith("aware_") else "{:.0f}"
        table.add_row(name, shown.format(value_a), shown.format(value_b), shown.format(value_b - value_a))
    return table


def write_plots(comparison, out: Path) -> list[Path]:
    """One panel per figure over time, both runs on one time axis, the first difference marked."""
    matplotlib.use("Agg")

    a, b = comparison.a, comparison.b
    names = [name for name in comparison.figures if name in a.frame and name in b.frame]
    figure, axes = plt.subplots(len(names), 1, figsize=(9, 2.2 * len(names)), sharex=True, squeeze=False)
    at = comparison.differ_at
    for axis, name in zip(axes[:, 0], names, strict=True):
        axis.plot(a.frame["time"], a.frame[name], label=f"A: {a.name}", color="tab:blue")
        axis.plot(b.frame["time"], b.frame[name], label=f"B: {b.name}", color="tab:orange", linestyle="--")
        if at is not None:
            axis.axvline(pandas_time(at), color="grey", linewidth=0.8)
        axis.set_ylabel(name.replace("_", " "), fontsize=8)
    axes[0, 0].legend(fontsize=8, loc="upper left")
    axes[0, 0].set_title("A and B over time" + (f" (first difference at {at})" if at else " (no difference)"))
    figure.autofmt_xdate()
    figure.tight_layout()
    path = out / "timelines.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return [path]


def pandas_time(text: str):
    """An ISO time as matplotlib's axis takes it (the frames' times are pandas timestamps)."""
    return pd.Timestamp(text)


def markdown(comparison, lines: list[str], written: list[Path]) -> str:
    """summary.md: the printed lines, the figures, the plots."""
    rows = ["| figure | A | B | B - A |", "|---|---:|---:|---:|"]
    for name, (value_a, value_b) in comparison.figures.items():
        rows.append(f"| {name} | {value_a:.3f} | {value_b:.3f} | {value_b - value_a:+.3f} |")
    images = [f"![{path.stem}]({path.name})" for path in written]
    return "\n".join(["# Comparison", "", *(f"    {line}" for line in lines), "", *rows, "", *images]) + "\n"
