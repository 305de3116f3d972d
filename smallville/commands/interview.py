"""`run.py interview` and `run.py whisper`: talk to the agents of a run at its last checkpoint."""

import argparse
from pathlib import Path

from smallville.cli import UserError


def _load(run_folder: str, llm: str | None = None):
    """The run's model at its last checkpoint, and the store it came from."""
    from smallville.model import SmallvilleModel  # noqa: PLC0415 - heavy
    from smallville.run_store import RunFolderError, RunStore  # noqa: PLC0415

    try:
        store = RunStore.open(Path(run_folder))
        config = store.config()
        config.pop("end")
        config.pop("checkpoint_minutes")
        if llm:
            config["llm"] = llm
        model = SmallvilleModel(**config, seed_memories=False)
        store.restore(model)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    return model, store


def _agents(model, name: str | None, everyone: bool) -> list:
    if everyone:
        return list(model.people)
    if name not in model.by_name:
        raise UserError(f"no agent named {name!r} in this run; choose from: {', '.join(model.by_name)}")
    return [model.by_name[name]]


def run(args: argparse.Namespace) -> int:
    """Print each asked agent's answer; store it only with --remember."""
    if not args.all and not args.agent:
        raise UserError("name an agent, or ask everyone with --all")
    model, store = _load(args.run, args.llm)
    try:
        for agent in _agents(model, args.agent, args.all):
            answer = model.interview(agent.name, args.question, remember=args.remember)
            print(f"{agent.name}: {answer}")
        if args.remember:
            store.checkpoint(model)
    finally:
        store.close()
        model.close()
    return 0


def whisper(args: argparse.Namespace) -> int:
    """Queue the statement in the agent's memory and save it into the checkpoint."""
    model, store = _load(args.run)
    try:
        (agent,) = _agents(model, args.agent, False)
        model.whisper(agent.name, args.statement)
        store.checkpoint(model)
        print(f"{agent.name} will remember: {args.statement!r} (resume the run to see what follows)")
    finally:
        store.close()
        model.close()
    return 0
