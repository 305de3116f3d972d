"""A run's town at its last checkpoint rebuilt for an evaluation, its event log, and the agents' status at a time.

The pattern of `run.py interview`: the run's configuration builds a fresh model, the store restores it. The
evaluation's calls then go through a gateway of its own, built from the run's settings (cache, routes, budget,
server) with the evaluation's models, on a fresh ledger: what the evaluation costs is counted apart from the run,
and rebuilding the town never calls the evaluation's models.
"""

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from agents import Gateway, check_models
from smallville.evaluation.errors import EvaluationError
from smallville.model import SmallvilleModel
from smallville.runs.folder import read_events
from smallville.runs.integrity import model_settings
from smallville.runs.store import RunStore

# The request kinds a --judge model answers: rankings and fact checks (one at a time, or several at once), groundings
# (the old pairwise judge too).
JUDGE_KINDS = ("rank", "ranks", "fact_check", "fact_checks", "ground", "judge")


def load_model(
    run: Path,
    *,
    llm: str | None = None,
    judge: str | None = None,
    api_base: str | None = None,
    budget: dict | None = None,
    backends: dict | None = None,
):
    """The run's model at its last checkpoint, answering with `llm` (None: the run's) and judging with `judge`.

    `budget` ({"max_calls": ..., "max_cost": ...}) limits the evaluation's calls; what it leaves out, the run's own
    budget limits. `backends` (model name -> backend) answer instead of the named models' own (a scripted mind).

    Raises:
        RunFolderError: If the folder is not a run or has no checkpoint.
    """
    store = RunStore.open(run)
    try:
        model = SmallvilleModel(**model_settings(store.config()))
        try:
            store.restore(model)
        except BaseException:
            model.close()
            raise
    finally:
        store.close()
    settings = model.gateway.config
    routes = {**settings.routes, **(dict.fromkeys(JUDGE_KINDS, judge) if judge else {})}
    try:
        models = {"model": llm or settings.model, "routes": routes, "api_base": api_base or settings.api_base}
        config = replace(settings, **models, **(budget or {}))
        check_models(config.model, config.routes, config.api_base)  # a missing key: one line, not failed calls
    except ValueError as error:
        model.close()
        raise EvaluationError(f"--llm/--judge: {error}") from None
    model.gateway.close()
    model.gateway = Gateway(config, backends=backends)
    return model


def read_event_log(run: Path) -> list[dict]:
    """The run's event log (actions, talk lines, talks, plans) as dicts, oldest first."""
    return read_events(run / "events.sqlite")


def rewind_status(model, log: list[dict], at: datetime) -> None:
    """Give each agent the status (`currently`) it had at `at`, as an evaluation `--at` an earlier time must.

    The checkpoint holds the status of the run's last day (each new day's plan starts from a summary of the day
    before); the event log records every day's plan with the status it was made from, so the latest plan by `at`
    tells the status then, and before an agent's first plan it is the persona's own.
    """
    plans = {}
    for entry in log:
        if entry["kind"] == "plan" and datetime.fromisoformat(entry["time"]) <= at:
            plans[entry["agent"]] = entry["text"]  # the log is oldest first: the latest plan wins
    for agent in model.people:
        agent.identity = agent.identity.with_currently(plans.get(agent.name, agent.persona.identity.currently))
