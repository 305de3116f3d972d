"""`run.py interview` and `run.py whisper`: talk to the agents of a run at its last checkpoint."""

import argparse

from smallville.cli import UserError
from smallville.commands.loading import build_model, open_store, save_checkpoint
from smallville.scenarios.agent_names import UnknownAgent, resolve_agent


def load_run(run_folder: str, llm: str | None = None, *, write: bool = False):
    """The run's model at its last checkpoint, and the store it came from (locked when the command writes).

    A reader (an interview that is not remembered) leaves every file as it is, so it can run beside a writer.
    """
    store = open_store(run_folder, write=write)
    try:
        if store.snapshot is None:
            raise UserError(
                f"{run_folder}: no checkpoint yet; wait for the run's first one, or `run.py resume {run_folder}`"
            )
        model = build_model(store, overrides={"llm": llm} if llm else None, truncate=write)
    except BaseException:
        store.close()
        raise
    return model, store


def _agents(model, name: str | None, everyone: bool) -> list:
    if everyone:
        return list(model.people)
    try:
        return [model.by_name[resolve_agent(name, list(model.by_name))]]
    except UnknownAgent as error:
        raise UserError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    """Print each asked agent's answer; store it only with --remember."""
    if not args.all and not args.agent:
        # argparse gave the one word after the folder to the question: it may be a name without its question.
        raise UserError(
            f"interview: only {args.question!r} after the run folder; give an agent and a question, e.g. "
            f'run.py interview {args.run} "Isabella Rodriguez" "Are you planning a party?", '
            'or ask everyone: run.py interview RUN --all "QUESTION"'
        )
    if args.llm:
        from agents import check_model  # noqa: PLC0415 - heavy

        try:
            check_model(args.llm)
        except ValueError as error:
            raise UserError(f"--llm: {error}") from error
    model, store = load_run(args.run, args.llm, write=args.remember)
    try:
        for agent in _agents(model, args.agent, args.all):
            answer = model.interview(agent.name, args.question, remember=args.remember, asker=args.asker or "")
            print(f"{agent.name}: {answer}")
        if args.remember:
            save_checkpoint(store, model)
    finally:
        store.close()
        model.close()
    return 0


def whisper(args: argparse.Namespace) -> int:
    """Queue the statement in the agent's memory and save it into the checkpoint (--at: later, in the timeline)."""
    if getattr(args, "at", None) is not None:
        from smallville.commands.intervene import whisper_later  # noqa: PLC0415

        return whisper_later(args)
    model, store = load_run(args.run, write=True)
    try:
        (agent,) = _agents(model, args.agent, False)
        model.whisper(agent.name, args.statement)
        save_checkpoint(store, model)
        print(f"{agent.name} will remember: {args.statement!r} (resume the run to see what follows)")
    finally:
        store.close()
        model.close()
    return 0
