"""`run.py report RUN`: plots (PNG) and a Markdown summary of a finished or running run, from its folder alone."""

import argparse
import json
import sqlite3
from pathlib import Path

from smallville.cli import UserError
from smallville.run_folder import RunFolder


def run(args: argparse.Namespace) -> int:
    """Write the report next to the run's data and say where it is."""
    if (Path(args.run) / "batch.json").is_file():  # a batch folder: its own report (smallville.batch)
        from smallville.commands.batch import report  # noqa: PLC0415

        return report(Path(args.run))
    folder = RunFolder(Path(args.run))
    if not folder.exists():
        raise UserError(f"{folder.root}: not a run folder (no config.json); give the folder `simulate` wrote")
    written = write_report(folder)
    print(f"report written to {folder.report} ({', '.join(path.name for path in written)})")
    return 0


def write_report(folder: RunFolder) -> list[Path]:
    """Plot density and awareness over time and the latest relationship graph; write summary.md."""
    import matplotlib  # noqa: PLC0415 - plotting libraries load only for a report

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    import networkx as nx  # noqa: PLC0415
    import pandas as pd  # noqa: PLC0415

    if not folder.model_metrics.is_file():
        raise UserError(f"{folder.model_metrics}: missing; the run wrote no metrics yet (wait for a checkpoint)")
    frame = pd.read_csv(folder.model_metrics, parse_dates=["time"])
    folder.report.mkdir(exist_ok=True)
    written = []

    figure, axis = plt.subplots(figsize=(8, 4))
    axis.plot(frame["time"], frame["density"], color="tab:blue")
    axis.set(title="Relationship network density", xlabel="simulated time", ylabel="density", ylim=(0, 1))
    figure.autofmt_xdate()
    written.append(_save(figure, folder.report / "density.png", plt))

    facts = [column.removeprefix("aware_") for column in frame.columns if column.startswith("aware_")]
    figure, axis = plt.subplots(figsize=(8, 4))
    for fact in facts:
        axis.plot(frame["time"], 100 * frame[f"aware_{fact}"], label=fact)
    axis.set(title="Information diffusion", xlabel="simulated time", ylabel="% of agents aware", ylim=(0, 100))
    if facts:
        axis.legend()
    figure.autofmt_xdate()
    written.append(_save(figure, folder.report / "diffusion.png", plt))

    graphs = sorted(folder.graphs.glob("*.graphml"))
    graph = nx.read_graphml(graphs[-1]) if graphs else nx.Graph()
    figure, axis = plt.subplots(figsize=(9, 9))
    layout = nx.circular_layout(graph)
    nx.draw_networkx(graph, layout, ax=axis, node_color="#f4c27a", edge_color="#999999", font_size=8)
    axis.set_title(f"Who knows whom ({graph.number_of_nodes()} agents, {graph.number_of_edges()} ties)")
    axis.axis("off")
    written.append(_save(figure, folder.report / "relationships.png", plt))

    summary = folder.report / "summary.md"
    summary.write_text(_summary_markdown(folder, frame, facts))
    written.append(summary)
    return written


def _save(figure, path: Path, plt) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _summary_markdown(folder: RunFolder, frame, facts: list[str]) -> str:
    config = json.loads(folder.config.read_text())
    first, last = frame.iloc[0], frame.iloc[-1]
    lines = [
        f"# Run report: {config.get('scenario_name', '?')}",
        "",
        f"- model: `{config.get('llm', '?')}`, embedder `{config.get('embedder', '?')}`, seed {config.get('rng')}",
        f"- simulated from {first['time']} to {last['time']}",
        f"- relationship density: {first['density']:.3f} -> {last['density']:.3f} (paper: 0.167 -> 0.74 in two days)",
    ]
    for fact in facts:
        lines.append(f"- aware of `{fact}`: {100 * first[f'aware_{fact}']:.0f}% -> {100 * last[f'aware_{fact}']:.0f}%")
    if "attendees" in frame:
        lines.append(f"- at the gathering: {int(last['attendees'])} agents")
    if folder.events.is_file():
        with sqlite3.connect(folder.events) as db:
            counts = dict(db.execute("select kind, count(*) from events group by kind").fetchall())
        lines.append(
            f"- talks: {counts.get('talk', 0)} ({counts.get('line', 0)} lines), "
            f"reflections: {counts.get('reflection', 0)}, actions: {counts.get('action', 0)}"
        )
    if folder.ledger.is_file():
        totals = json.loads(folder.ledger.read_text()).get("totals", {})
        tokens = totals.get("prompt_tokens", 0) + totals.get("completion_tokens", 0)
        lines.append(f"- model calls: {totals.get('calls', 0)}, tokens: {tokens}, cost: ${totals.get('cost') or 0:.4f}")
    lines += [
        "",
        "![density](density.png)",
        "",
        "![diffusion](diffusion.png)",
        "",
        "![relationships](relationships.png)",
    ]
    return "\n".join(lines) + "\n"
