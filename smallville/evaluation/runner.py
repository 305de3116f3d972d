"""`evaluate_run`: the paper's evaluation of one run folder, written to RUN/evaluation/ and resumable."""

import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from smallville.evaluation.attendance import attendance, invitees, to_ask
from smallville.evaluation.battery import check_fact_questions, load_battery
from smallville.evaluation.conditions import resolve
from smallville.evaluation.errors import EvaluationError
from smallville.evaluation.interviews import Session, answer_phase, judge_phase
from smallville.evaluation.journal import Journal
from smallville.evaluation.measure_phase import measure_phase
from smallville.evaluation.measures import gathering_fact, learned_from
from smallville.evaluation.report import write_all
from smallville.evaluation.restore import load_model, read_event_log, rewind_status
from smallville.evaluation.results import Results, condition_figures, end_to_end, estimate_at, keyword_awareness

logger = logging.getLogger(__name__)
# What a resumed evaluation must share with the one it continues.
PINNED = ("at", "battery", "llm", "judge")


def evaluate_run(
    run: Path,
    *,
    at: datetime | None = None,
    judge: str | None = None,
    conditions: Sequence[str] | None = None,
    repeats: int = 2,
    agents: Sequence[str] | None = None,
    llm: str | None = None,
    progress: Callable | None = None,
    battery: str | Path | None = None,
    api_base: str | None = None,
    budget: dict | None = None,
    backends: dict | None = None,
) -> Path:
    """Interview, judge and measure a run's agents; write RUN/evaluation/ and return that folder.

    Items already answered (in RUN/evaluation/*.jsonl) are not asked again, so a killed evaluation resumes.
    `progress(done, total, totals)` is called after each item with the ledger's totals. `battery` names another
    battery file; `api_base` another server for `llm` and `judge` than the run's. `budget` ({"max_calls": ...,
    "max_cost": ...}) limits this evaluation's own calls, counted apart from the run's (by default by the run's budget).
    `backends` (model name -> backend) answer instead of the named models (the ground-truth town's scripted mind).

    Raises:
        EvaluationError: For an unknown condition or agent, a time outside the run, repeats < 1, or a resumed
            evaluation asked with another time, battery or model.
        BatteryError, RunFolderError: For a bad battery file or run folder.
    """
    run = Path(run)
    if repeats < 1:
        raise EvaluationError(f"--repeats {repeats}: the judge must rank each question at least once")
    try:
        chosen = resolve(list(conditions) if conditions else None)
    except KeyError as error:
        raise EvaluationError(f"--conditions: {error.args[0]}") from None
    if len(chosen) < 2:
        raise EvaluationError("--conditions: name at least two conditions for the judge to compare")
    questions = load_battery(battery)
    model = load_model(run, llm=llm, judge=judge, api_base=api_base, budget=budget, backends=backends)
    try:
        for note in check_fact_questions(questions, [fact.id for fact in model.setting.facts], model.setting.name):
            logger.warning("%s", note)
        at = _check_time(model, at)
        log = read_event_log(run)
        if at < model.now:
            rewind_status(model, log, at)
        names = _check_agents(model, agents)
        folder = run / "evaluation"
        folder.mkdir(exist_ok=True)
        _pin(folder, {"at": at.isoformat(), "battery": questions.name, "llm": llm, "judge": judge})
        session = Session(
            model=model,
            at=at,
            names=names,
            conditions=chosen,
            battery=questions,
            repeats=repeats,
            answers=Journal(folder / "answers.jsonl"),
            judgements=Journal(folder / "judgements.jsonl"),
            checks=Journal(folder / "checks.jsonl"),
            progress=progress,
        )
        per_agent = len(questions.items())
        present = _present(model, log, at, names)
        session.total = len(names) * (per_agent * (len(chosen) + repeats) + len(model.setting.facts) + len(names) - 1)
        session.total += len(present)
        model.run_async(answer_phase(session))
        model.run_async(judge_phase(session))
        model.run_async(measure_phase(session, present))
        results = _results(run, log, session)
        totals = model.gateway.ledger.totals()
        kinds = model.gateway.ledger.by_kind().items()
        by_kind = {kind: kind_totals.requests for kind, kind_totals in kinds}
        ledger = {"calls": totals.calls, "cache_hits": totals.cache_hits, "tokens": totals.tokens,
                  "cost": totals.cost or 0.0, "requests_by_kind": by_kind,
                  "tokens_by_kind": {kind: kind_totals.tokens for kind, kind_totals in kinds},
                  "reused": session.reused, "run_tokens": run_tokens(run)}  # fmt: skip
        (folder / "ledger.json").write_text(json.dumps(ledger, indent=2) + "\n")
        offline = model.gateway.config.model == "offline" and not judge
        write_all(folder, results, offline=offline, header=f"{run.name} at {at:%Y-%m-%d %H:%M}", ledger=ledger)
    finally:
        model.close()
    return folder


def run_tokens(run: Path) -> int | None:
    """The run's own tokens (prompt and completion, RUN/ledger.json), beside the evaluation's; None if unknown."""
    path = run / "ledger.json"
    try:
        totals = json.loads(path.read_text())["totals"]
        return int(totals["prompt_tokens"]) + int(totals["completion_tokens"])
    except (OSError, KeyError, TypeError, ValueError):
        return None


def _check_time(model, at: datetime | None) -> datetime:
    if at is None:
        return model.now
    if not model.start <= at <= model.now:
        raise EvaluationError(
            f"--at {at.isoformat()}: outside the run, which covers {model.start.isoformat()} to {model.now.isoformat()}"
        )
    return at


def _check_agents(model, agents: Sequence[str] | None) -> list[str]:
    if not agents:
        return list(model.by_name)
    unknown = [name for name in agents if name not in model.by_name]
    if unknown:
        raise EvaluationError(
            f"--agents: no agent named {unknown[0]!r} in this run; choose from: {', '.join(model.by_name)}"
        )
    return [name for name in model.by_name if name in set(agents)]


def _pin(folder: Path, settings: dict) -> None:
    """Remember what the evaluation was asked with; a resume with other settings would mix two evaluations."""
    path = folder / "settings.json"
    if path.is_file():
        before = json.loads(path.read_text())
        for key in PINNED:
            if before.get(key) != settings[key]:
                raise EvaluationError(
                    f"{path}: this evaluation was made with {key} = {before.get(key)!r}, not {settings[key]!r}; "
                    f"ask with the same, or remove {folder} to start again"
                )
    path.write_text(json.dumps(settings, indent=2) + "\n")


def _present(model, log: list[dict], at: datetime, names: list[str]) -> list:
    """Who to ask why they were at the gathering's place: those there whose actions do not say."""
    gathering = model.setting.gathering
    if gathering is None:
        return []
    fact = gathering_fact(gathering, model.setting.facts)
    return [(agent, window) for agent, window in to_ask(log, gathering, fact, at, model.start) if agent in names]


def _results(run: Path, log: list[dict], session: Session) -> Results:
    model, at = session.model, session.at
    facts = [fact.id for fact in model.setting.facts]
    ratings, mean_ranks, kruskal, comparisons, count, bias, length = condition_figures(
        session.conditions, list(session.judgements)
    )
    checks = [record for record in session.checks if record["agent"] in session.names]
    figures = end_to_end(checks, session.names, facts)
    order = {name: index for index, name in enumerate(session.names)}
    facts_order = {fact: index for index, fact in enumerate(facts)}
    fact_checks = sorted(
        (r for r in checks if r["kind"] == "fact"), key=lambda r: (facts_order[r["subject"]], order[r["agent"]])
    )
    cascades = [learned_from(record) for record in fact_checks]
    gathering = model.setting.gathering
    fact = gathering_fact(gathering, model.setting.facts)
    present = None
    if gathering is not None:  # a gathering no tracked fact announces has no invitee
        invited = invitees(cascades, fact, gathering) if fact is not None else set()
        present = attendance(log, gathering, fact, invited, checks, at, model.start)
    return Results(
        conditions=session.conditions,
        ratings=ratings,
        mean_ranks=mean_ranks,
        kruskal=kruskal,
        comparisons=comparisons,
        judgements=count,
        bias=bias,
        length=length,
        awareness=figures["awareness"],
        awareness_interval=figures["awareness_interval"],
        awareness_estimate=keyword_awareness(model.social, facts, session.names, at),
        density=figures["density"],
        density_interval=figures["density_interval"],
        density_directed=figures["density_directed"],
        density_estimate=estimate_at(run, "density", at, model.social.density()),
        hallucinated=figures["hallucinated"],
        checked=figures["checked"],
        attendance=present,
        cascades=cascades,
        knows=figures["knows"],
    )
