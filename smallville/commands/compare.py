"""`run.py compare A B`: where two runs first differ and what changed, printed, with plots of both timelines.

Reads both folders at their last checkpoints (never takes a lock, never writes to their data files); the plots and a
Markdown summary go to --out (default: A/compare/<B's name>/). `run.py compare A` (or `--without-player [NAME]`)
compares a run a player joined with the same run replayed without the player (commands/without_player.py): the
player's visit, where the town parts, where the agents went, what they remember of the player and who carries the
player's news.
"""

import argparse
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
from rich.console import Console
from rich.table import Table

from smallville.cli import UserError
from smallville.commands.without_player import default_folder, without_player
from smallville.runs.compare import compare_runs, read_run
from smallville.runs.diagnosis import diagnose, explain
from smallville.runs.integrity import RunFolderError
from smallville.runs.player_effect import player_effect
from smallville.runs.without_player import player_visit


def _cannot_write(out: Path, error: OSError) -> str:
    """One line: the file that cannot be written, the real cause (a missing folder, a file in the way, ...), the fix."""
    path = Path(error.filename or out)
    said = explain(path, error, "cannot be written")
    return said if diagnose(path, error) else f"{said}; give another --out"


def run(args: argparse.Namespace) -> int:
    """Print the comparison, then write the plots and the summary."""
    if args.b is not None and (args.without_player is not None or args.baseline is not None):
        raise UserError("compare: give another run B, or --without-player to compare A without its player; not both")
    if args.b is None:
        return run_without_player(args)
    try:
        a, b = read_run(Path(args.a)), read_run(Path(args.b))
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if a.config.get("scenario_name") != b.config.get("scenario_name"):
        print(f"note: {a.name} and {b.name} are towns of different scenarios; their people may differ")
    out = _out_folder(args, a, b)
    comparison = compare_runs(a, b)
    show(comparison, summary_lines(comparison), out)
    return 0


def run_without_player(args: argparse.Namespace) -> int:
    """A with its player beside A replayed without them (made by commands/without_player.py, or reused)."""
    console = Console(stderr=True, soft_wrap=True)
    try:
        a = read_run(Path(args.a))
        visit = player_visit(a.folder, a.snapshot.state, args.without_player or None)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    target = Path(args.baseline) if args.baseline else default_folder(a.folder.root, visit)
    without_player(a.folder.root, visit, target, console)
    try:
        b = read_run(target)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    out = _out_folder(args, a, b)
    comparison = compare_runs(a, b)
    effect = player_effect(a, b, visit)
    show(comparison, player_lines(comparison, effect), out)
    return 0


def _out_folder(args: argparse.Namespace, a, b) -> Path:
    """--out, or A/compare/<B's name>, made before anything is printed: a folder that cannot be written is one line."""
    out = Path(args.out) if args.out else a.folder.root / "compare" / b.name
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(_cannot_write(out, error)) from error
    return out


def show(comparison, lines: list[str], out: Path) -> None:
    """Print the lines and the figures, then write the plots and summary.md into `out`."""
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


def _pairs(pairs: set) -> str:
    return "; ".join(" & ".join(sorted(pair)) for pair in sorted(pairs, key=sorted)) or "none"


def summary_lines(comparison) -> list[str]:
    """What a user reads first: where the runs part, then who knows, met and knows whom differently."""
    a, b = comparison.a, comparison.b
    lines = [f"A = {a.folder.root} (to {a.snapshot.now:%Y-%m-%d %H:%M}), B = {b.folder.root} "
             f"(to {b.snapshot.now:%Y-%m-%d %H:%M})"]  # fmt: skip
    return lines + parting_lines(comparison) + moment_lines(comparison)


def parting_lines(comparison) -> list[str]:
    """Where the two event logs first differ, with each log's entry there."""
    a, b = comparison.a, comparison.b
    at = comparison.differ_at
    if at is None:
        same = min(len(a.events), len(b.events))
        return [f"the event logs agree on all {same} entries both hold: no difference while both ran"]
    lines = [f"first difference at {at} (event {comparison.first_difference + 1}):"]
    for label, entry in zip("AB", comparison.differing_entries(), strict=True):
        lines.append(f"  {label}: {_entry(entry)}")
    return lines


def _entry(entry: dict | None) -> str:
    return f"{entry['time']} {entry['agent'] or '-'} {entry['kind']}: {entry['text']}" if entry else "(ended)"


def moment_lines(comparison) -> list[str]:
    """Who knows each tracked fact, who talked and who knows whom differently at the latest moment both reached."""
    lines = [f"at {comparison.moment:%Y-%m-%d %H:%M}, the latest moment both reached:"]
    for fact, (only_a, only_b, both) in comparison.knowing.items():
        lines.append(
            f"  knows {fact}: A {len(only_a) + len(both)}, B {len(only_b) + len(both)}"
            f" (only in A: {', '.join(sorted(only_a)) or 'none'}; only in B: {', '.join(sorted(only_b)) or 'none'})"
        )
    lines.append(f"  talked only in A: {_pairs(comparison.talked[0])}; only in B: {_pairs(comparison.talked[1])}")
    lines.append(f"  know each other only in A: {_pairs(comparison.ties[0])}; only in B: {_pairs(comparison.ties[1])}")
    return lines


def player_lines(comparison, effect) -> list[str]:
    """A run with its player beside it without them: the visit, where the town parts, places, memories, news."""
    a, b, name = comparison.a, comparison.b, effect.visit.player
    lines = [f"A = {a.folder.root} with {name} (to {a.snapshot.now:%Y-%m-%d %H:%M}), B = {b.folder.root} without "
             f"{name} (to {b.snapshot.now:%Y-%m-%d %H:%M}); the same seed, apart from {effect.visit.describe()}",
             f"{name}'s visit (A):"]  # fmt: skip
    for entry in effect.visit_log:
        lines.append(f"  {entry['time'][11:]} {_visit_entry(entry, name)}")
    if effect.parted is None:
        lines.append("the event logs agree while both ran: the player left no trace in the log")
    else:
        lines.append(f"the runs part at {effect.parted['time']}: A: {_entry(effect.parted)}")
    town = effect.town_difference
    if town is None:
        lines.append(f"the town itself (beside {name}'s own moves and lines): no difference while both ran")
    else:
        when = min(entry["time"] for entry in town if entry is not None)
        lines.append(f"the town itself first differs at {when} (beside {name}'s own moves and lines):")
        for label, other, entry in zip("AB", "BA", town, strict=True):
            lines.append(f"  only in {label}: {_entry(entry) if entry else f'nothing that {other} lacks'}")
    lines.append(f"where the agents went from {effect.visit.joined:%H:%M} (a place, then since when):")
    same = [agent for agent, (with_player, without) in effect.places.items() if with_player == without]
    for agent, (with_player, without) in effect.places.items():
        if agent not in same:
            lines.append(f"  {agent}: A {_route(with_player)}")
            lines.append(f"  {' ' * len(agent)}  B {_route(without)}")
    if same:
        lines.append(f"  the same with and without {name}: {', '.join(same)}")
    lines.append(f"what they remember of {name} (memories naming {name}, A / B):")
    for agent, (with_player, without) in effect.remembered.items():
        example = f'; e.g. "{with_player[-1][:100]}"' if with_player else ""
        lines.append(f"  {agent}: {len(with_player)} / {len(without)}{example}")
    for line, (with_player, without) in effect.news.items():
        lines.append(f'{name}\'s news "{line[:80]}" is in the memories of (estimate by its words): '
                     f"A {', '.join(with_player) or 'nobody'}; B {', '.join(without) or 'nobody'}")  # fmt: skip
    return lines + moment_lines(comparison)


def _visit_entry(entry: dict, player: str) -> str:
    """One entry of the visit: the player's move, a line either way, or the agent's summary of the talk."""
    if entry["kind"] == "line":
        to = "" if entry["agent"] == player else f" (to {player})"
        return f"{entry['agent']}{to}: {entry['text']}"
    if entry["kind"] == "talk":
        return f"{entry['agent']} keeps the talk: {entry['text']}"
    return f"{entry['agent']} {entry['text']}" if entry["agent"] == player else f"{entry['agent']}: {entry['text']}"


def _route(visited: list[tuple[str, str]]) -> str:
    return " > ".join(f"{place} {when}" for when, place in visited) or "nowhere recorded"


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
