"""The CLI's live view of a batch: one rich display across the cells, and a line per finished cell."""

import time

from rich.console import Console
from rich.live import Live
from rich.table import Table

from smallville.batch.cell import CellOutcome
from smallville.batch.grid import CellSpec

STATUS_STYLE = {"done": "green", "skipped": "dim", "stopped": "yellow", "failed": "red", "not started": "yellow"}


class RichDisplay:
    """Counts of done, running, failed and waiting cells, calls and cost, and each running cell's clock."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self._live: Live | None = None
        self._total = 0
        self._ended: dict[str, str] = {}
        self._running: dict[str, dict] = {}
        self._calls: dict[str, int] = {}
        self._cost: dict[str, float] = {}
        self._started = time.perf_counter()

    def begin(self, cells: list[CellSpec], finished: list[str]) -> None:
        """Show the batch; finished cells count as done."""
        self._total = len(cells)
        self._ended = dict.fromkeys(finished, "skipped")
        if finished:
            self.console.print(f"{len(finished)} of {len(cells)} cells finished before; running the others")
        self._live = Live(self._table(), console=self.console, refresh_per_second=2, transient=True)
        self._live.start()

    def started(self, spec: CellSpec) -> None:
        """A cell is running."""
        self._running[spec.cell_id] = {"now": "starting", "fraction": 0.0}
        self._refresh()

    def progress(self, message: dict) -> None:
        """A running cell's clock, calls and cost."""
        self._running[message["cell"]] = {"now": message["now"][:16].replace("T", " "), "fraction": message["fraction"]}
        self._calls[message["cell"]] = message["calls"]
        self._cost[message["cell"]] = message["cost"]
        self._refresh()

    def finished(self, outcome: CellOutcome) -> None:
        """A line for the finished cell."""
        self._running.pop(outcome.cell_id, None)
        self._ended[outcome.cell_id] = outcome.status
        self._calls[outcome.cell_id] = max(self._calls.get(outcome.cell_id, 0), outcome.calls)
        self._cost[outcome.cell_id] = max(self._cost.get(outcome.cell_id, 0.0), outcome.cost)
        style = STATUS_STYLE.get(outcome.status, "white")
        note = f" ({outcome.message})" if outcome.message else ""
        self.console.print(
            f"[{style}]{outcome.status:>11}[/{style}] {outcome.cell_id}: {outcome.calls} calls, "
            f"${outcome.cost:.4f}, {outcome.wall_seconds:.1f} s{note}"
        )
        self._refresh()

    def end(self) -> None:
        """Remove the live view."""
        if self._live is not None:
            self._live.stop()

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._table())

    def _table(self) -> Table:
        ended = list(self._ended.values())
        done = sum(status in ("done", "skipped") for status in ended)
        failed = sum(status == "failed" for status in ended)
        waiting = self._total - len(ended) - len(self._running)
        elapsed = time.perf_counter() - self._started
        table = Table(
            title=f"batch: {done} done, {len(self._running)} running, {failed} failed, {waiting} waiting; "
            f"{sum(self._calls.values())} calls, ${sum(self._cost.values()):.4f}, {elapsed:.0f} s",
            title_justify="left",
        )
        for column in ("running cell", "simulated time", "progress", "calls", "cost $"):
            table.add_column(column, justify="left" if column == "running cell" else "right")
        for cell_id, state in sorted(self._running.items()):
            table.add_row(
                cell_id,
                state["now"],
                f"{100 * state['fraction']:.0f}%",
                str(self._calls.get(cell_id, 0)),
                f"{self._cost.get(cell_id, 0.0):.4f}",
            )
        return table
