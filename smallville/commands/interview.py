"""`run.py interview` and `run.py whisper`: talk to the agents of a run at its last checkpoint."""

import argparse
import sys

from agents import BudgetExceeded, ModelUnavailable
from smallville.baseline import OFFLINE_ANSWERS, is_offline
from smallville.cli import UserError
from smallville.commands.intervene import whisper_later
from smallville.commands.loading import load_run, save_checkpoint
from smallville.runs.integrity import model_settings
from smallville.scenarios.agent_names import UnknownAgent, resolve_agent
from smallville.settings.validation import SettingError, check_api_base


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
    overrides = {name: value for name, value in (("llm", args.llm), ("api_base", args.api_base)) if value}
    model, store = load_run(args.run, overrides, write=args.remember)
    try:
        _check_api_base(store, overrides)
        if args.asker and is_offline(model.gateway.config.model, model.gateway.config.routes):
            print(f"note: {OFFLINE_ANSWERS}", file=sys.stderr)  # --as is taken, and changes nothing offline
        for agent in _agents(model, args.agent, args.all):
            try:
                answer = model.interview(agent.name, args.question, remember=args.remember, asker=args.asker or "")
            except (BudgetExceeded, ModelUnavailable) as error:
                raise UserError(f"{error}; {_nothing_kept(args)}") from None
            print(f"{agent.name}: {answer}")
        if args.remember:
            save_checkpoint(store, model)
    finally:
        store.close()
        model.close()
    return 0


def _check_api_base(store, overrides: dict) -> None:
    """--api-base for an interview that calls no server (the run offline, no --llm): refused, not silently unused."""
    try:
        check_api_base({**model_settings(store.config()), **overrides})
    except SettingError as error:
        raise UserError(f"--api-base {error}") from None


def _nothing_kept(args: argparse.Namespace) -> str:
    """What to do after the model failed mid-interview: nothing was stored, so asking again is safe."""
    server = "--api-base URL (a server that moved)" if not args.api_base else "another --api-base"
    return f"nothing was stored; ask again once it answers, or give {server} or another --llm"


def whisper(args: argparse.Namespace) -> int:
    """Queue the statement in the agent's memory and save it into the checkpoint (--at: later, in the timeline)."""
    if getattr(args, "at", None) is not None:
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
