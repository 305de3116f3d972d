"""`run.py report RUN`: plots (PNG) and a Markdown summary of a finished or running run, from its folder alone.

It reads the run at its last checkpoint (never takes the writer's lock, never writes to the data files): metric rows
and events past the checkpoint's counts, which a running simulation may be appending, are left out. The report goes
into RUN/report, or --out (a run folder on a read-only disk, or several reports side by side).
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
from smallville.scenarios.scenario import ScenarioError, load_scenario


def run(args: argparse.Namespace) -> int:
    """Write the report next to the run's data and say where it is."""
    if (Path(args.run) / "batch.json").is_file():  # a batch folder: its own report (smallville.batch)
        return report(Path(args.run))
    folder = RunFolder(Path(args.run))
    try:
        read_config(folder)
        check_databases(folder)
        snapshot = read_snapshot(folder, full=True)  # a report of damaged data is worse than none
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if snapshot is None:
        raise UserError(f"{folder.root}: no checkpoint yet; wait for the run's first one (at its start)")
    if snapshot.notice:
        print(f"warning: {snapshot.notice}", file=sys.stderr)
    out = Path(args.out) if getattr(args, "out", None) else folder.report
    try:
        written = write_report(folder, snapshot, out)
    except OSError as error:
        raise UserError(explain(Path(error.filename or out), error, "cannot be written", folder.root)) from error
    print(f"report written to {out} ({', '.join(path.name for path in written)})")
    # The figures themselves, with the offline baseline's warning when it applies (summary.md's lines).
    summary = (out / "summary.md").read_text().splitlines()
    print("\n".join(line.removeprefix("> ") for line in summary if line.startswith(("- ", "> "))))
    return 0


def write_report(folder: RunFolder, snapshot: Snapshot, out: Path | None = None) -> list[Path]:
    """Plot density and awareness over time and the latest relationship graph; write summary.md (into `out`)."""
    out = out or folder.report
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
    out.mkdir(parents=True, exist_ok=True)
    written = []

    figure, axis = plt.subplots(figsize=(8, 4))
    axis.plot(frame["time"], frame["density"], color="tab:blue")
    title = "Relationship network density (estimate: anyone named or talked with)"
    axis.set(title=title, xlabel="simulated time", ylabel="density (estimate)", ylim=(0, 1))
    figure.autofmt_xdate()
    written.append(_save(figure, out / "density.png", plt))

    facts = [column.removeprefix("aware_") for column in frame.columns if column.startswith("aware_")]
    figure, axis = plt.subplots(figsize=(8, 4))
    for fact in facts:
        axis.plot(frame["time"], 100 * frame[f"aware_{fact}"], label=fact)
    title = "Information diffusion (estimate: a memory matched the fact's keywords)"
    axis.set(title=title, xlabel="simulated time", ylabel="% of agents aware (estimate)", ylim=(0, 100))
    if facts:
        axis.legend()
    figure.autofmt_xdate()
    written.append(_save(figure, out / "diffusion.png", plt))

    graph, new_ties = _graphs(folder, snapshot)
    figure, axis = plt.subplots(figsize=(9, 9))
    layout = nx.circular_layout(graph)
    nx.draw_networkx(graph, layout, ax=axis, node_color="#f4c27a", edge_color="#999999", font_size=8)
    nx.draw_networkx_edges(graph, layout, ax=axis, edgelist=new_ties, edge_color="#c62828", width=2)
    axis.set_title(
        f"Who knows whom, estimate ({graph.number_of_nodes()} agents, {graph.number_of_edges()} ties; "
        f"{len(new_ties)} new since the start, in red)"
    )
    axis.axis("off")
    written.append(_save(figure, out / "relationships.png", plt))

    summary = out / "summary.md"
    summary.write_text(_summary_markdown(folder, frame, facts, snapshot, new_ties))
    written.append(summary)
    return written


def _graphs(folder: RunFolder, snapshot: Snapshot) -> tuple[nx.Graph, list[tuple[str, str]]]:
    """The latest relationship graph at the checkpoint, and its ties that the first graph (the start) did not have."""
    graphs = sorted(path for path in folder.graphs.glob("*.graphml") if path.stem <= f"{snapshot.now:%Y%m%dT%H%M%S}")
    graph = nx.read_graphml(graphs[-1]) if graphs else nx.Graph()
    first = nx.read_graphml(graphs[0]) if graphs else nx.Graph()
    return graph, [edge for edge in graph.edges() if not first.has_edge(*edge)]


def gathering_line(config: dict, last_time, attendees: int) -> str:
    """Who was at the gathering's place in its hours, or that the run never reached them (then no figure)."""
    try:
        gathering = load_scenario(config["scenario_name"]).gathering
    except (KeyError, ValueError, OSError, ScenarioError):
        gathering = None
    if gathering is not None and last_time < gathering.start:
        return (
            f"at the gathering's place ({gathering.name}, {gathering.start:%b %d %H:%M}-{gathering.end:%H:%M}): not "
            f"reached, the run ends at {last_time:%b %d %H:%M}"
        )
    return f"at the gathering's place in its hours (estimate): {attendees} agents"


# What the reflection count counts, so that 0 reads as what it is.
REFLECTIONS_NOTE = (
    "an agent reflects when the importance of its memories since its last reflection passes its threshold, 150 in "
    "the paper; none on a short run is usual"
)


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


def _summary_markdown(folder: RunFolder, frame, facts: list[str], snapshot: Snapshot, new_ties: list) -> str:
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
        f"- new ties (estimate): {len(new_ties)}"
        + (f": {', '.join(f'{a} - {b}' for a, b in new_ties)}" if new_ties else ""),
    ]
    if is_offline(config.get("llm"), config.get("routes")):
        lines[1:1] = ["", f"> {OFFLINE_BASELINE}", ""]
    for fact in facts:
        start, end = 100 * first[f"aware_{fact}"], 100 * last[f"aware_{fact}"]
        lines.append(f"- aware of `{fact}` (estimate): {start:.0f}% -> {end:.0f}%")
    if "attendees" in frame:
        lines.append(f"- {gathering_line(config, last['time'], int(last['attendees']))}")
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
            f"reflections: {counts.get('reflection', 0)} ({REFLECTIONS_NOTE}), actions: {counts.get('action', 0)}"
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
