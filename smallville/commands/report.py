"""`run.py report RUN`: plots (PNG) and a Markdown summary of a finished or running run, from its folder alone.

It reads the run at its last checkpoint (never takes the writer's lock, never writes to the data files): metric rows
and events past the checkpoint's counts, which a running simulation may be appending, are left out.
"""

import argparse
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import networkx as nx
import pandas as pd

from smallville.baseline import OFFLINE_BASELINE, is_offline
from smallville.cli import UserError
from smallville.commands.batch import report
from smallville.runs.diagnosis import explain, read_only_uri
from smallville.runs.folder import RunFolder
from smallville.runs.integrity import (
    RunFolderError,
    Snapshot,
    check_databases,
    check_model_metrics,
    checkpoint_calls,
    read_config,
    read_snapshot,
)


def run(args: argparse.Namespace) -> int:
    """Write the report next to the run's data and say where it is."""
    if (Path(args.run) / "batch.json").is_file():  # a batch folder: its own report (smallville.batch)
        return report(Path(args.run))
    folder = RunFolder(Path(args.run))
    try:
        read_config(folder)
        check_databases(folder)
        snapshot = read_snapshot(folder)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if snapshot is None:
        raise UserError(f"{folder.root}: no checkpoint yet; wait for the run's first one (at its start)")
    if snapshot.notice:
        print(f"warning: {snapshot.notice}", file=sys.stderr)
    try:
        written = write_report(folder, snapshot)
    except OSError as error:
        raise UserError(
            explain(Path(error.filename or folder.report), error, "cannot be written", folder.root)
        ) from error
    print(f"report written to {folder.report} ({', '.join(path.name for path in written)})")
    # The figures themselves, with the offline baseline's warning when it applies (summary.md's lines).
    summary = (folder.report / "summary.md").read_text().splitlines()
    print("\n".join(line.removeprefix("> ") for line in summary if line.startswith(("- ", "> "))))
    return 0


def write_report(folder: RunFolder, snapshot: Snapshot) -> list[Path]:
    """Plot density and awareness over time and the latest relationship graph; write summary.md."""
    matplotlib.use("Agg")

    rows = snapshot.state["model_rows"]
    if not folder.model_metrics.is_file() or rows == 0:
        raise UserError(f"{folder.model_metrics}: no rows yet; wait for the run's first checkpoint")
    frame = pd.read_csv(folder.model_metrics, nrows=rows, dtype=str, keep_default_na=False)
    try:
        check_model_metrics(frame, folder.model_metrics)
    except RunFolderError as error:
        raise UserError(str(error)) from None
    frame = pd.read_csv(folder.model_metrics, parse_dates=["time"], nrows=rows)
    folder.report.mkdir(exist_ok=True)
    written = []

    figure, axis = plt.subplots(figsize=(8, 4))
    axis.plot(frame["time"], frame["density"], color="tab:blue")
    title = "Relationship network density (estimate: anyone named or talked with)"
    axis.set(title=title, xlabel="simulated time", ylabel="density (estimate)", ylim=(0, 1))
    figure.autofmt_xdate()
    written.append(_save(figure, folder.report / "density.png", plt))

    facts = [column.removeprefix("aware_") for column in frame.columns if column.startswith("aware_")]
    figure, axis = plt.subplots(figsize=(8, 4))
    for fact in facts:
        axis.plot(frame["time"], 100 * frame[f"aware_{fact}"], label=fact)
    title = "Information diffusion (estimate: a memory matched the fact's keywords)"
    axis.set(title=title, xlabel="simulated time", ylabel="% of agents aware (estimate)", ylim=(0, 100))
    if facts:
        axis.legend()
    figure.autofmt_xdate()
    written.append(_save(figure, folder.report / "diffusion.png", plt))

    graphs = sorted(path for path in folder.graphs.glob("*.graphml") if path.stem <= f"{snapshot.now:%Y%m%dT%H%M%S}")
    graph = nx.read_graphml(graphs[-1]) if graphs else nx.Graph()
    figure, axis = plt.subplots(figsize=(9, 9))
    layout = nx.circular_layout(graph)
    nx.draw_networkx(graph, layout, ax=axis, node_color="#f4c27a", edge_color="#999999", font_size=8)
    axis.set_title(f"Who knows whom, estimate ({graph.number_of_nodes()} agents, {graph.number_of_edges()} ties)")
    axis.axis("off")
    written.append(_save(figure, folder.report / "relationships.png", plt))

    summary = folder.report / "summary.md"
    summary.write_text(_summary_markdown(folder, frame, facts, snapshot))
    written.append(summary)
    return written


def _save(figure, path: Path, plt) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def thinking_rule(config: dict) -> str:
    """When the run's thoughts took effect, in words (it shapes the town: README, "Thinking that overlaps time")."""
    steps, talk = config["thinking_steps"], config["talk_thinking_steps"]  # read_config fills in both for old runs
    if not steps and not talk:
        return "lock-step (each step waits for its thoughts)"
    return (
        f"overlapping: a thought that asks a model takes effect {steps} steps after it began, a line of talk {talk} "
        "steps after (--thinking-steps, --talk-thinking-steps)"
    )


ESTIMATES_NOTE = (
    "estimates are the run's cheap per-step figures (keyword matches in memory, anyone at the place); "
    "`run.py evaluate` measures them by the paper's definitions (docs/evaluation.md)"
)


def _summary_markdown(folder: RunFolder, frame, facts: list[str], snapshot: Snapshot) -> str:
    config = read_config(folder)
    first, last = frame.iloc[0], frame.iloc[-1]
    lines = [
        f"# Run report: {config.get('scenario_name', '?')}",
        "",
        f"- model: `{config.get('llm', '?')}`, embedder `{config.get('embedder', '?')}`, seed {config.get('rng')}",
        f"- thinking: {thinking_rule(config)}",
        f"- simulated from {first['time']} to {last['time']}",
        f"- relationship density (estimate): {first['density']:.3f} -> {last['density']:.3f} "
        "(paper: 0.167 -> 0.74 in two days)",
    ]
    if is_offline(config.get("llm"), config.get("routes")):
        lines[1:1] = ["", f"> {OFFLINE_BASELINE}", ""]
    for fact in facts:
        start, end = 100 * first[f"aware_{fact}"], 100 * last[f"aware_{fact}"]
        lines.append(f"- aware of `{fact}` (estimate): {start:.0f}% -> {end:.0f}%")
    if "attendees" in frame:
        lines.append(f"- at the gathering's place in its hours (estimate): {int(last['attendees'])} agents")
    lines.append(f"- {ESTIMATES_NOTE}")
    if folder.events.is_file():
        with closing(sqlite3.connect(read_only_uri(folder.events), uri=True, timeout=30)) as db:
            counts = dict(
                db.execute(
                    "select kind, count(*) from events where id <= ? group by kind", (snapshot.state["events"],)
                ).fetchall()
            )
        lines.append(
            f"- talks: {counts.get('talk', 0)} ({counts.get('line', 0)} lines), "
            f"reflections: {counts.get('reflection', 0)}, actions: {counts.get('action', 0)}"
        )
    records = checkpoint_calls(folder, snapshot.state)
    calls = sum(record.get("calls", 0) for record in records)
    tokens = sum(record.get("prompt_tokens", 0) + record.get("completion_tokens", 0) for record in records)
    cost = sum(record.get("cost") or 0 for record in records)
    fallbacks = sum(bool(record.get("fallback")) for record in records)
    repairs = sum(bool(record.get("repaired")) for record in records)
    retries = sum(record.get("retries", 0) for record in records)
    lines.append(f"- model calls: {calls}, tokens: {tokens}, cost: ${cost:.4f}")
    lines.append(f"- faults: {retries} retries, {repairs} repairs, {fallbacks} fallbacks of {len(records)} answers")
    lines += [
        "",
        "![density](density.png)",
        "",
        "![diffusion](diffusion.png)",
        "",
        "![relationships](relationships.png)",
    ]
    return "\n".join(lines) + "\n"
