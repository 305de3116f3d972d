"""Batch ablations: a grid of conditions x seeds x scenarios, in local processes or as Ray tasks, resumable.

Each cell is an ordinary run folder; the batch aggregates them into a table with bootstrap intervals and plots.

BATCH/
  batch.json            the plan: the grid as given and every cell's fingerprint
  cells/<cell-id>/      a run folder (config.json, metrics/, ledger.json, ...) and cell.json (grid place, status)
  results.csv|.parquet  one row per cell
  summary.csv, summary.md, report/*.png
"""

from smallville.batch.cell import CellHooks, CellOutcome, cell_folder, read_cell, run_cell
from smallville.batch.conditions import CONDITIONS, PAPER_LADDER, named_condition
from smallville.batch.display import RichDisplay
from smallville.batch.grid import (
    Budget,
    CellSpec,
    Grid,
    GridError,
    check_cells,
    expand,
    load_grid,
    parse_seeds,
    validate_grid,
)
from smallville.batch.grid_keys import parameter_names
from smallville.batch.local import LocalExecutor
from smallville.batch.report import is_batch_folder, write_batch_report
from smallville.batch.results import VOLATILE, cell_row, results_frame
from smallville.batch.runner import NoDisplay, prepare, run_batch
from smallville.batch.summary import mean_ci, summarize

__all__ = [
    "CONDITIONS",
    "PAPER_LADDER",
    "VOLATILE",
    "Budget",
    "CellHooks",
    "CellOutcome",
    "CellSpec",
    "Grid",
    "GridError",
    "LocalExecutor",
    "NoDisplay",
    "RichDisplay",
    "cell_folder",
    "cell_row",
    "check_cells",
    "expand",
    "is_batch_folder",
    "load_grid",
    "mean_ci",
    "named_condition",
    "parameter_names",
    "parse_seeds",
    "prepare",
    "read_cell",
    "results_frame",
    "run_batch",
    "run_cell",
    "summarize",
    "validate_grid",
    "write_batch_report",
]
