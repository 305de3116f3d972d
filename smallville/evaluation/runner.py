"""`evaluate_run`: the paper's evaluation of one run folder, written to RUN/evaluation/ and resumable."""

import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from smallville.evaluation.battery import check_fact_questions, load_battery
from smallville.evaluation.conditions import resolve
from smallville.evaluation.errors import EvaluationError
from smallville.evaluation.interviews import Session, answer_phase, judge_phase, measure_phase
from smallville.evaluation.journal import Journal
from smallville.evaluation.measures import attendance, cascade, gathering_fact
from smallville.evaluation.report import write_all
from smallville.evaluation.restore import load_model, read_event_log, rewind_status
from smallville.evaluation.results import Results, condition_figures, end_to_end, keyword_awareness

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
) -> Path:
    """Interview, judge and measure a run's agents; write RUN/evaluation/ and return that folder.

    Items already answered (in RUN/evaluation/*.jsonl) are not asked again, so a killed evaluation resumes.
    `progress(done, total, totals)` is called after each item with the ledger's totals. `battery` names another
    battery file; `api_base` another server for `llm` and `judge` than the run's. `budget` ({"max_calls": ...,
    "max_cost": ...}) limits this evaluation's own calls, counted apart from the run's (by default by the run's budget).

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
    model = load_model(run, llm=llm, judge=judge, api_base=api_base, budget=budget)
    try:
        check_fact_questions(questions, [fact.id for fact in model.setting.facts], model.setting.name)
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
        session.total = len(names) * (per_agent * (len(chosen) + repeats) + len(model.setting.facts) + len(names) - 1)
        model.run_async(answer_phase(session))
        model.run_async(judge_phase(session))
        model.run_async(measure_phase(session))
        results = _results(log, session)
        totals = model.gateway.ledger.totals()
        by_kind = {kind: kind_totals.requests for kind, kind_totals in model.gateway.ledger.by_kind().items()}
        ledger = {"calls": totals.calls, "cache_hits": totals.cache_hits, "tokens": totals.tokens,
                  "cost": totals.cost or 0.0, "requests_by_kind": by_kind}  # fmt: skip
        (folder / "ledger.json").write_text(json.dumps(ledger, indent=2) + "\n")
        offline = model.gateway.config.model == "offline" and not judge
        write_all(folder, results, offline=offline, header=f"{run.name} at {at:%Y-%m-%d %H:%M}", ledger=ledger)
    finally:
        model.close()
    return folder


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


def _results(log: list[dict], session: Session) -> Results:
    model, at = session.model, session.at
    facts = [fact.id for fact in model.setting.facts]
    ratings, mean_ranks, kruskal, comparisons, count = condition_figures(session.conditions, list(session.judgements))
    awareness, density, hallucinated, checked = end_to_end(list(session.checks), session.names, facts)
    gathering = model.setting.gathering
    present = None
    if gathering is not None:
        present = attendance(log, gathering, gathering_fact(gathering, model.setting.facts), at)
    memories = {name: session.nodes(name) for name in session.names}
    cascades = [learned for fact in model.setting.facts for learned in cascade(fact, session.names, log, memories, at)]
    return Results(
        conditions=session.conditions,
        ratings=ratings,
        mean_ranks=mean_ranks,
        kruskal=kruskal,
        comparisons=comparisons,
        judgements=count,
        awareness=awareness,
        awareness_keyword=keyword_awareness(model.social, facts, session.names, at),
        density=density,
        hallucinated=hallucinated,
        checked=checked,
        attendance=present,
        cascades=cascades,
    )
