"""The batch report: results table, summary by condition, plots and summary.md, from the batch folder alone.

Plots: awareness of each fact over simulated time per condition (the mean over the cells with a band of 95% normal
intervals of that mean, from each cell's metrics/model.csv), relationship density the same way, and the TrueSkill
ladder across seeds when the cells were evaluated.
"""

import math
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd

from smallville.batch.grid import GridError
from smallville.batch.results import results_frame, write_results
from smallville.batch.summary import differences, is_estimate, summarize, width_for
from smallville.runs.diagnosis import explain

REPORT_DIR = "report"


def is_batch_folder(path: Path) -> bool:
    """Whether a folder is a batch (it has the plan `run.py batch` writes)."""
    return (path / "batch.json").is_file()


def write_batch_report(batch: Path) -> list[Path]:
    """Write results.csv/.parquet, summary.csv, the plots and summary.md; returns the files written.

    Raises:
        GridError: If a file cannot be written: naming it and the real cause (a full disk, permission, ...).
    """
    try:
        return _write_batch_report(batch)
    except OSError as error:
        raise GridError(explain(Path(error.filename or batch), error, "cannot be written", batch)) from error


def _write_batch_report(batch: Path) -> list[Path]:
    matplotlib.use("Agg")
    frame = results_frame(batch)
    written = write_results(batch, frame)
    summary = summarize(frame)
    summary_csv = batch / "summary.csv"
    summary.to_csv(summary_csv, index=False)
    written.append(summary_csv)
    compared = differences(frame)
    differences_csv = batch / "differences.csv"
    compared.to_csv(differences_csv, index=False)
    written.append(differences_csv)
    report = batch / REPORT_DIR
    report.mkdir(exist_ok=True)
    series = _time_series(batch, frame)
    plots = [_plot_over_time(series, column, report) for column in _over_time_columns(series)]
    ladder = _plot_ladder(frame, report)
    plots += [ladder] if ladder else []
    written += plots
    markdown = batch / "summary.md"
    markdown.write_text(_markdown(batch, frame, summary, plots, compared))
    written.append(markdown)
    return written


def _time_series(batch: Path, frame):
    """Every cell's model metrics with its condition and the simulated hours since its start."""
    parts = []
    for cell, condition in zip(frame.get("cell", []), frame.get("condition", []), strict=True):
        path = batch / "cells" / cell / "metrics" / "model.csv"
        if not path.is_file():
            continue
        metrics = pd.read_csv(path, parse_dates=["time"])
        metrics["hours"] = (metrics["time"] - metrics["time"].iloc[0]).dt.total_seconds() / 3600
        metrics["condition"], metrics["cell"] = condition, cell
        parts.append(metrics)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _over_time_columns(series) -> list[str]:
    return [
        name for name in ("density", *sorted(c for c in series.columns if c.startswith("aware_"))) if name in series
    ]


def _plot_over_time(series, column: str, report: Path) -> Path:

    figure, axis = plt.subplots(figsize=(8, 4))
    for condition, rows in series.groupby("condition", sort=False):
        grouped = rows.groupby("hours")[column]
        mean, error = grouped.mean(), 1.96 * grouped.sem().fillna(0)
        scale = 100 if column.startswith("aware_") else 1
        axis.plot(mean.index, scale * mean, label=f"{condition} ({rows['cell'].nunique()} cells)")
        axis.fill_between(mean.index, scale * (mean - error), scale * (mean + error), alpha=0.2)
    if column.startswith("aware_"):
        title, label, limits = f"Awareness of {column.removeprefix('aware_')}", "% of agents aware", (0, 100)
    else:
        title, label, limits = "Relationship network density", "density", (0, 1)
    axis.set(title=f"{title}, mean and 95% band per condition", xlabel="simulated hours", ylabel=label, ylim=limits)
    axis.legend(fontsize=8)
    return _save(figure, report / f"{column}.png")


def _plot_ladder(frame, report: Path) -> Path | None:
    """The TrueSkill ladder: each evaluation condition's mu per seed (dots) and its mean over seeds (bar)."""
    columns = [name for name in frame.columns if name.startswith("mu_")]
    if not columns:
        return None
    figure, axis = plt.subplots(figsize=(8, 4))
    means = [frame[name].mean() for name in columns]
    order = sorted(range(len(columns)), key=lambda index: -means[index])
    for position, index in enumerate(order):
        values = frame[columns[index]].dropna()
        axis.bar(position, means[index], color="#cfd8e3")
        axis.scatter([position] * len(values), values, color="tab:blue", s=12, zorder=3)
    axis.set_xticks(range(len(order)), [columns[index].removeprefix("mu_") for index in order], rotation=20)
    axis.set(title="Believability (TrueSkill mu) across cells", ylabel="mu")
    return _save(figure, report / "trueskill_ladder.png")


def _save(figure, path: Path) -> Path:

    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _markdown(batch: Path, frame, summary, plots: list[Path], compared=None) -> str:
    counts = frame["status"].value_counts().to_dict() if "status" in frame else {}
    lines = [
        f"# Batch {batch.name}",
        "",
        f"{len(frame)} cells: " + ", ".join(f"{count} {status}" for status, count in sorted(counts.items())),
        "",
        "Means over each condition's finished cells, with 95% t confidence intervals. Measures marked "
        "(estimate) are the run's cheap per-step figures (keyword matches in memory, anyone at the place); "
        "interview_aware_*, eval_relationship_density and attendance_* are the paper's measures (`run.py evaluate`).",
        "",
    ]
    if not summary.empty:
        measures = [name.removesuffix("_mean") for name in summary.columns if name.endswith("_mean")]
        heads = [
            f"{condition} (n={cells})" for condition, cells in zip(summary["condition"], summary["cells"], strict=True)
        ]
        lines.append("| measure | " + " | ".join(heads) + " |")
        lines.append("|---|" + "---|" * len(summary))
        for measure in measures:
            cells = [_interval(row, measure) for _, row in summary.iterrows()]
            lines.append(f"| {_label(measure)} | " + " | ".join(cells) + " |")
        lines += _seeds_needed(summary)
    if compared is not None and not compared.empty:
        lines += ["", "## Differences from the first condition (95% t interval; paired by seed when possible)",
                  "", "| condition | measure | difference | test | p |", "|---|---|---|---|---|"]  # fmt: skip
        for _, row in compared.iterrows():
            interval = _interval({"d_mean": row["difference"], "d_ci_low": row["ci_low"],
                                  "d_ci_high": row["ci_high"]}, "d")  # fmt: skip
            p = "-" if math.isnan(row["p"]) else f"{row['p']:.3g}"
            lines.append(f"| {row['condition']} | {_label(row['measure'])} | {interval} | {row['test']} | {p} |")
    lines += ["", *(f"![{path.stem}]({REPORT_DIR}/{path.name})" for path in plots), ""]
    return "\n".join(lines)


def _seeds_needed(summary) -> list[str]:
    """Seeds each measure needs for its interval to be no wider than the width named (from the spread seen)."""
    columns = [name for name in summary.columns if name.endswith("_seeds_needed")]
    varied = [name for name in columns if any(_missing(value) or value > 2 for value in summary[name])]
    if not columns:
        return []
    lines = ["", "Seeds needed for a 95% interval no wider than the width, from the spread over the seeds run "
             f"(the {len(columns) - len(varied)} other measures did not vary: 2 seeds):", ""]  # fmt: skip
    if not varied:
        return lines[:2]
    lines += ["| measure | width | " + " | ".join(summary["condition"]) + " |", "|---|---|" + "---|" * len(summary)]
    for column in varied:
        measure = column.removesuffix("_seeds_needed")
        values = ["-" if _missing(value) else str(int(value)) for value in summary[column]]
        lines.append(f"| {_label(measure)} | {width_for(measure):g} | " + " | ".join(values) + " |")
    return lines


def _label(measure: str) -> str:
    """A measure's name as the tables show it: estimates say so."""
    return f"{measure} (estimate)" if is_estimate(measure) else measure


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _interval(row, measure: str) -> str:
    mean, low, high = row[f"{measure}_mean"], row[f"{measure}_ci_low"], row[f"{measure}_ci_high"]
    if math.isnan(mean):  # no finished cell has it
        return "-"
    if low == high:
        return f"{mean:.3g}"
    return f"{mean:.3g} [{low:.3g}, {high:.3g}]"
