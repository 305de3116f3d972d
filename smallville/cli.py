"""The command line: argument parsing only; each command's work lives in its own module, imported when run.

Heavy libraries (mesa, litellm, numpy models) load only inside a command, so `--help` answers in well under a second.
"""

import argparse
import logging
import sys
from collections.abc import Sequence

from smallville.options import add_model_options

DESCRIPTION = """Generative agents (Park et al. 2023) in the Ville, on Mesa.
Offline by default: no API key, no network; --llm names any litellm model to use a real one."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command."""
    parser = argparse.ArgumentParser(prog="run.py", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    simulate = commands.add_parser(
        "simulate",
        help="simulate days of the town",
        description="Simulate the town from the scenario's start; prints progress and a summary table.",
    )
    when = simulate.add_mutually_exclusive_group()
    when.add_argument("--days", type=float, default=1.0, help="simulated days to run (default: 1)")
    when.add_argument("--until", help="simulated end time, e.g. 2023-02-13T12:00")
    add_model_options(simulate)
    simulate.add_argument("--out", help="run folder to write (default: runs/<scenario>-<time>); must not exist")
    simulate.add_argument(
        "--checkpoint-minutes", type=float, default=60, help="simulated minutes between checkpoints (default: 60)"
    )
    simulate.set_defaults(handler="smallville.commands.simulate:run")

    resume = commands.add_parser(
        "resume", help="continue a run from its last checkpoint", description="Continue a run to its end time."
    )
    resume.add_argument("run", help="the run folder")
    resume.set_defaults(handler="smallville.commands.simulate:resume")

    interview = commands.add_parser(
        "interview",
        help="ask an agent a question about its life",
        description="An in-character answer from the agent's memories at the run's last checkpoint.",
    )
    interview.add_argument("run", help="the run folder")
    interview.add_argument("agent", nargs="?", help="the agent's full name (or --all)")
    interview.add_argument("question", help='e.g. "Who is running for mayor?"')
    interview.add_argument("--all", action="store_true", help="ask every agent")
    interview.add_argument("--remember", action="store_true", help="keep the exchange in the agents' memories")
    interview.add_argument("--llm", default=None, help="answer with another model than the run's")
    interview.set_defaults(handler="smallville.commands.interview:run")

    whisper = commands.add_parser(
        "whisper",
        help="give an agent a memory (the paper's inner voice)",
        description="Add a statement to an agent's memories at the last checkpoint; resume to see what it does.",
    )
    whisper.add_argument("run", help="the run folder")
    whisper.add_argument("agent", help="the agent's full name")
    whisper.add_argument("statement", help='e.g. "You are going to run for mayor"')
    whisper.set_defaults(handler="smallville.commands.interview:whisper")

    serve = commands.add_parser(
        "serve",
        help="watch the town in the browser (Solara)",
        description="Serve the browser app: a new model with these options, or the replay of a run folder.",
    )
    add_model_options(serve)
    serve.add_argument(
        "replay_run", nargs="?", metavar="RUN", help="a run folder to replay instead of a new model (no model calls)"
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=int, default=8765, help="port (default: 8765)")
    serve.set_defaults(handler="smallville.commands.serve:run")

    evaluate = commands.add_parser(
        "evaluate",
        help="the paper's evaluation of a run: interviews, judged believability, measures",
        description="Interview every agent under the paper's conditions, have a judge rank the answers (TrueSkill), "
        "and measure awareness, relationships and attendance by interview. Writes RUN/evaluation/; resumable.",
    )
    evaluate.add_argument("run", help="the run folder")
    evaluate.add_argument("--at", help="the time to evaluate at, within the run (default: its last checkpoint)")
    evaluate.add_argument("--judge", help="litellm model that ranks answers and checks facts (default: the run's)")
    evaluate.add_argument("--llm", help="model the agents answer with (default: the run's)")
    evaluate.add_argument(
        "--conditions",
        help="comma-separated (default: full,no_reflection,no_reflection_planning,persona_only); NAME@original or "
        "NAME@1,2,1 retrieves with other weights",
    )
    evaluate.add_argument("--repeats", type=int, default=2, help="rankings per question, in other orders (default: 2)")
    evaluate.add_argument("--agents", help="comma-separated full names (default: every agent of the run)")
    evaluate.add_argument("--battery", help="a battery .toml file or a name in data/evaluation/ (default: paper)")
    evaluate.add_argument("--api-base", help="base URL of the server for --llm and --judge (default: the run's)")
    evaluate.set_defaults(handler="smallville.commands.evaluate:run")

    report = commands.add_parser(
        "report", help="plots and a summary of a run", description="Write PNG plots and summary.md into RUN/report."
    )
    report.add_argument("run", help="the run folder")
    report.set_defaults(handler="smallville.commands.report:run")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the command; errors a user can fix print one line and exit 1."""
    parser = build_parser()
    args = parser.parse_args(argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    module_name, function_name = args.handler.split(":")
    import importlib  # noqa: PLC0415 - the command's module loads only when it runs

    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


class UserError(Exception):
    """A mistake the user can fix (a bad name, a missing key, an existing folder): one line, no traceback."""
