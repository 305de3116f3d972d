"""`run.py models check`: will this model run a town? One request of every kind, a table of how each went.

`--llm NAME` checks one model (`--api-base` for a server of one's own, `--judge` for the evaluation's kinds too);
`--matrix A,B,C` checks several, side by side (`NAME@URL` gives one its own server). Exits 1 when a model cannot run
a town (a kind fell back, was refused, or the server kept failing), so a script can check before it spends a day;
the closing line then names the cause (authentication, unknown model, unreachable, refused form, timeouts) and the
fix. A refusal every kind would meet alike (a bad key, an unknown model) stops the check, and repeats are said once.
"""

import argparse
import statistics

from rich.console import Console
from rich.table import Table

from agents import GatewayConfig, check_model_name
from smallville.cli import UserError
from smallville.model_trial import NOT_ASKED, sample_requests, try_every_kind

# Retries of a failing call in a check (a run's default is 3): with --timeout's default of 25 s, a server that takes
# connections but never answers is reported within 60 s (two tries and a half-second pause), not after 4 minutes.
CHECK_RETRIES = 1
# Marks of each outcome in the matrix.
MARKS = {"parsed": "ok", "repaired": "repaired", "fell back": "FELL BACK", "refused": "REFUSED", "failed": "FAILED",
         "not asked": "-"}  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Check each model named; print the table (or the matrix) and each model's verdict."""
    named = [name.strip() for name in (args.matrix or args.llm or "").split(",") if name.strip()]
    if not named:
        raise UserError("name a model: --llm openai/gpt-5.4-mini, or several with --matrix A,B,C")
    configs = []
    for item in named:
        name, _, own_base = item.partition("@") if args.matrix else (item, "", "")
        api_base = own_base or args.api_base
        try:
            check_model_name(name, api_base=api_base)
            config = GatewayConfig(model=name, api_base=api_base, timeout_s=args.timeout, max_retries=CHECK_RETRIES,
                                   reasoning_effort=args.reasoning_effort, max_in_flight=1)  # fmt: skip
            configs.append(config)
        except ValueError as error:
            raise UserError(f"{'--matrix' if args.matrix else '--llm'}: {error}") from error
    requests = sample_requests(judge=args.judge)
    console = Console(highlight=False)
    if not console.is_terminal:  # a file or a pipe (docs, CI logs): the whole table, not one cut to 80 columns
        console.width = 150
    checks = [try_every_kind(config, requests=requests) for config in configs]
    console.print(matrix_table(checks) if len(checks) > 1 else kind_table(checks[0], args.api_base))
    for check in checks:
        console.print(check.verdict(), style=None if check.can_run_a_town else "bold red")
    return 0 if all(check.can_run_a_town for check in checks) else 1


def kind_table(check, api_base: str | None = None) -> Table:
    """One model's kinds: the form sent, the outcome, the latency, the tokens, the cost."""
    where = f" at {api_base}" if api_base else ""
    table = Table(title=f"models check: {check.model}{where}")
    columns = ("kind", "form sent", "result", "latency s", "prompt", "cached", "answer", "reasoning", "cost $", "note")
    for column in columns:
        table.add_column(column, justify="left" if column in {"kind", "form sent", "result", "note"} else "right")
    unasked = [kind for kind in check.kinds if kind.outcome == NOT_ASKED]
    first_said: dict[str, str] = {}  # a note: the kind that said it first (a repeated refusal is said once)
    for kind in check.kinds:
        if kind.outcome == NOT_ASKED:
            continue
        note = kind.note
        if note and note in first_said:
            note = f"the same as {first_said[note]}"
        first_said.setdefault(kind.note, kind.kind)
        table.add_row(
            kind.kind,
            kind.form,
            kind.outcome,
            f"{kind.latency_s:.2f}",
            str(kind.prompt_tokens),
            str(kind.cached_tokens),
            str(kind.completion_tokens),
            str(kind.reasoning_tokens),
            ("?" if kind.answered else "-") if kind.cost is None else f"{kind.cost:.5f}",
            note,
            style=None if kind.answered else "red",
        )
    if unasked:  # one row for the kinds a dead server or a shared refusal left unasked, not one each
        names = ", ".join(kind.kind for kind in unasked)
        table.add_row(f"{len(unasked)} more kinds", "-", NOT_ASKED, *["-"] * 6, f"{unasked[0].note} ({names})")
    return table


def matrix_table(checks: list) -> Table:
    """Several models side by side: each kind's outcome and form, then latency, tokens and cost per model."""
    table = Table(title="models check")
    table.add_column("kind")
    for check in checks:
        table.add_column(check.model)
    kinds = [kind.kind for kind in checks[0].kinds]
    for index, kind in enumerate(kinds):
        cells = []
        for check in checks:
            done = check.kinds[index]
            cells.append(f"{MARKS.get(done.outcome, done.outcome)} ({done.form})")
        table.add_row(kind, *cells)
    table.add_row("median latency s", *(f"{_median([k.latency_s for k in c.kinds]):.2f}" for c in checks))
    table.add_row("tokens", *(str(sum(k.prompt_tokens + k.completion_tokens for k in c.kinds)) for c in checks))
    table.add_row("cost $", *(f"{sum(k.cost or 0.0 for k in c.kinds):.4f}" for c in checks))
    table.add_row("runs a town", *("yes" if c.can_run_a_town else "NO" for c in checks), style="bold")
    return table


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
