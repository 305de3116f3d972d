"""The batch's tidy table: one row per cell, read from the cell folders alone (so `report` can redo it any time).

Columns: the cell's place in the grid (cell, condition, scenario, seed), the parameters it set (`param_<name>`),
status, the run's per-step estimates (density at start and end, each fact's awareness at start and end by the keyword
rule: `aware_<fact>_start`, `aware_<fact>_end`; everyone at the gathering's place: `attendance`), calls, tokens,
cost, fallbacks, wall time and, when evaluated, the paper's measures (`interview_aware_<fact>`,
`eval_relationship_density` of the mutual graph, `attendance_invited`/`_came`/`_present`, hallucinations), the
evaluation's own estimates (`eval_estimate_*`), the judge's position bias, and believability per evaluation
condition (`mu_<condition>`, `sigma_<condition>`, TrueSkill).
"""

import csv
import json
from pathlib import Path

import pandas as pd

from smallville.batch.cell import read_cell
from smallville.batch.grid_keys import model_parameters

# Columns that differ between two runs of the same cells (the rest must be equal).
VOLATILE = ("wall_seconds",)


def cell_row(folder: Path) -> dict:
    """The row of one cell folder."""
    record = read_cell(folder)
    row: dict = {
        "cell": folder.name,
        "condition": record.get("condition"),
        "scenario": record.get("scenario"),
        "seed": record.get("seed"),
        "status": record.get("status", "not started"),
    }
    row.update({f"param_{name}": _plain(value) for name, value in sorted(record.get("parameters", {}).items())})
    metrics = folder / "metrics" / "model.csv"
    if metrics.is_file():
        frame = pd.read_csv(metrics)
        first, last = frame.iloc[0], frame.iloc[-1]
        row["time_start"], row["time_end"] = first["time"], last["time"]
        row["density_start"], row["density_end"] = float(first["density"]), float(last["density"])
        for column in (name for name in frame.columns if name.startswith("aware_")):
            row[f"{column}_start"], row[f"{column}_end"] = float(first[column]), float(last[column])
        row["attendance"] = int(last["attendees"]) if "attendees" in frame else None
    ledger = folder / "ledger.json"
    if ledger.is_file():
        totals = json.loads(ledger.read_text()).get("totals", {})
        row["calls"] = totals.get("calls", 0)
        row["cache_hits"] = totals.get("cache_hits", 0)
        row["tokens"] = totals.get("prompt_tokens", 0) + totals.get("completion_tokens", 0)
        row["cost"] = totals.get("cost") or 0.0
        row["fallbacks"] = totals.get("fallbacks", 0)
    row.update(evaluation_columns(folder / "evaluation"))
    row["wall_seconds"] = record.get("wall_seconds")
    return row


def evaluation_columns(evaluation: Path) -> dict:
    """Columns from RUN/evaluation (ratings.csv, measures.json), empty if the cell was not evaluated."""
    row: dict = {}
    ratings = evaluation / "ratings.csv"
    if ratings.is_file():
        with ratings.open(newline="") as handle:
            for rating in csv.DictReader(handle):
                row[f"mu_{rating['condition']}"] = float(rating["mu"])
                row[f"sigma_{rating['condition']}"] = float(rating["sigma"])
    measures_path = evaluation / "measures.json"
    if measures_path.is_file():
        measures = json.loads(measures_path.read_text())
        for fact, share in measures.get("awareness", {}).items():
            row[f"interview_aware_{fact}"] = float(share)
        estimates = measures.get("awareness_estimate") or measures.get("awareness_keyword", {})  # older evaluations
        for fact, share in estimates.items():
            row[f"eval_estimate_aware_{fact}"] = float(share)
        for name in EVALUATION_FIGURES:
            if name in measures:
                row[f"eval_{name}"] = measures[name]
        for name, value in measures.get("attendance", {}).items():
            if isinstance(value, int | float):
                row[f"attendance_{name}"] = value
        if "position_bias" in measures:
            row["eval_position_bias"] = measures["position_bias"]["kept_order"]
    return row


# The single figures of measures.json a row keeps (as eval_<name>).
EVALUATION_FIGURES = (
    "relationship_density",
    "relationship_density_directed",
    "relationship_density_estimate",
    "hallucinations",
    "hallucination_rate",
)


def results_frame(batch: Path, cell_ids: list[str] | None = None):
    """The table of a batch folder: the cells of its plan (or the given ones), in plan order."""
    if cell_ids is None:
        plan = batch / "batch.json"
        cell_ids = list(json.loads(plan.read_text())["cells"]) if plan.is_file() else []
    frame = pd.DataFrame([cell_row(batch / "cells" / cell_id) for cell_id in cell_ids])
    return _with_defaults(frame)


def _with_defaults(frame):
    """A parameter some cells set and others left to the model's default shows that default, not a blank."""
    defaults = model_parameters()
    for column in (name for name in frame.columns if name.startswith("param_")):
        default = defaults.get(column.removeprefix("param_"), (None, None))[1]
        if default is not None and default is not ...:
            frame[column] = frame[column].astype(object).where(frame[column].notna(), _plain(default))
            frame[column] = frame[column].infer_objects()
    return frame


def write_results(batch: Path, frame) -> list[Path]:
    """results.csv and results.parquet in the batch folder."""
    csv_path, parquet_path = batch / "results.csv", batch / "results.parquet"
    frame.to_csv(csv_path, index=False)
    frame.to_parquet(parquet_path, index=False)
    return [csv_path, parquet_path]


def _plain(value):
    """A parameter as a table cell: lists and dicts as JSON text (Parquet wants one type per column)."""
    return json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value
