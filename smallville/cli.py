"""The command line: argument parsing only; each command's work lives in its own module, imported when run.

Heavy libraries (mesa, litellm, numpy models) load only inside a command, and the model's options (derived from the
parameter table, which imports the agents' configuration) are added only to the command being run, so `run.py
--help` answers in well under a second.
"""

import argparse
import importlib
import logging
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from smallville.settings import option_types

DESCRIPTION = """Generative agents (Park et al. 2023) in the Ville, on Mesa.
Offline by default: no API key, no network; --llm names any litellm model to use a real one."""


def on_first_use(name: str):
    """The function `module:function`, its module imported now: the one place where the CLI loads code late.

    Every command's module, and the parameter table behind the model's options, load only when a command runs, so
    `run.py --help` loads nothing but argparse and the flags' validators (benchmarks/bench_startup.py).
    """
    module_name, function_name = name.split(":")
    return getattr(importlib.import_module(module_name), function_name)


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The parser of every command; with `command`, the model's options are added to that command only.

    "" (the default) adds them everywhere; None adds them nowhere (enough for `run.py --help`).
    """

    def add_model_options(parser: argparse.ArgumentParser, name: str, adder: str = "add_arguments") -> None:
        if command in ("", name):
            on_first_use(f"smallville.settings.parameters:{adder}")(parser)

    parser = OneLineParser(prog="run.py", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_run_commands(commands, add_model_options)
    _add_talk_commands(commands)
    _add_fork_commands(commands, add_model_options)
    _add_view_commands(commands, add_model_options)
    _add_study_commands(commands, add_model_options)
    _add_models_command(commands)
    on_first_use("smallville.commands.town:add_parser")(commands)
    return parser


def _add_run_commands(commands, add_model_options) -> None:
    """The commands that run a town: simulate and resume."""
    simulate = commands.add_parser(
        "simulate",
        help="simulate days of the town",
        description="Simulate the town from the scenario's start; prints progress and a summary table.",
    )
    when = simulate.add_mutually_exclusive_group()
    when.add_argument("--days", type=option_types.days, default=1.0, help="simulated days to run (default: 1)")
    when.add_argument("--until", type=option_types.until, help="simulated end time, e.g. 2023-02-13T12:00")
    add_model_options(simulate, "simulate")
    simulate.add_argument(
        "--out",
        type=option_types.out_folder,
        help="run folder to write (default: runs/<scenario>-<time>); must not exist",
    )
    simulate.add_argument(
        "--log-prompts",
        type=option_types.writable_file,
        metavar="FILE",
        help="write every rendered prompt and its answer to FILE, one JSON object a line (docs/prompts.md)",
    )
    simulate.add_argument(
        "--checkpoint-minutes",
        type=option_types.checkpoint_minutes,
        default=60,
        help="simulated minutes between checkpoints (default: 60)",
    )
    simulate.add_argument(
        "--keep-checkpoints",
        type=option_types.keep_checkpoints,
        metavar="every 1h|TIMES",
        help='keep checkpoints to fork from: "every 1h" (or 30m, 2h, ...) or comma-separated times, e.g. '
        '"2023-02-13T08:00,2023-02-13T12:00" (the start is always kept; run.py fork)',
    )
    add_fallback_options(simulate)
    simulate.set_defaults(handler="smallville.commands.simulate:run")

    resume = _run_command(
        commands,
        "resume",
        "smallville.commands.simulate:resume",
        help="continue a run from its last checkpoint",
        description="Continue a run to its end time; a new end time or budget is kept in its config.json.",
    )
    longer = resume.add_mutually_exclusive_group()
    longer.add_argument(
        "--days", type=option_types.days, help="make the run this many simulated days from its start (as simulate's)"
    )
    longer.add_argument("--until", type=option_types.until, help="a new simulated end time, e.g. 2023-02-14T12:00")
    _add_budget(resume, "a new budget of model calls, those made so far included",
                "a new budget in dollars, what was spent so far included")  # fmt: skip
    resume.add_argument("--api-base", help="the model server's new base URL (a server that moved; the same model)")
    add_fallback_options(resume)


def _run_command(commands, name: str, handler: str, **texts: str) -> argparse.ArgumentParser:
    """A command on a run folder: its parser, RUN its first argument, and the module:function that does its work."""
    command = commands.add_parser(name, **texts)
    command.add_argument("run", type=option_types.path_text, help="the run folder")
    command.set_defaults(handler=handler)
    return command


def _add_talk_commands(commands) -> None:
    """The commands that talk to the agents of a run: interview, whisper, join and set."""
    interview = _run_command(
        commands,
        "interview",
        "smallville.commands.interview:run",
        help="ask an agent a question about its life",
        description="An in-character answer from the agent's memories at the run's last checkpoint.",
    )
    interview.add_argument("agent", nargs="?", help="the agent's full name (or --all)")
    interview.add_argument("question", type=option_types.question, help='e.g. "Who is running for mayor?"')
    interview.add_argument("--all", action="store_true", help="ask every agent")
    interview.add_argument("--remember", action="store_true", help="keep the exchange in the agents' memories")
    interview.add_argument(
        "--as",
        dest="asker",
        type=option_types.persona,
        metavar="PERSONA",
        help='whom the agent believes it talks to, e.g. "a news reporter from the Ville Gazette"',
    )
    interview.add_argument("--llm", default=None, help="answer with another model than the run's")
    interview.add_argument(
        "--api-base", default=None, help="base URL of the server for --llm (default: the run's), e.g. a moved server"
    )

    whisper = _run_command(
        commands,
        "whisper",
        "smallville.commands.interview:whisper",
        help="give an agent a memory (the paper's inner voice)",
        description="Add a statement to an agent's memories at the last checkpoint; resume to see what it does.",
    )
    whisper.add_argument("agent", help="the agent's full name")
    whisper.add_argument("statement", type=option_types.statement, help='e.g. "You are going to run for mayor"')
    whisper.add_argument("--at", type=option_types.until, help="a later simulated time, e.g. 2023-02-13T08:00")

    join = _run_command(
        commands,
        "join",
        "smallville.commands.join:run",
        help="be a person in the town: walk, be seen, talk with the agents",
        description="Join the run at its last checkpoint as a player, go to --at, say each --say line to its agent "
        "and print the answer, then leave; kept in the run's timeline (replays and forks say them again).",
    )
    join.add_argument("--as", dest="player", required=True, metavar="NAME", help='your name, e.g. "Alex Park"')
    join.add_argument("--persona", type=option_types.persona, metavar="TEXT", help='who you are, e.g. "a reporter"')
    join.add_argument("--at", metavar="PLACE", help='where to go first, e.g. "Hobbs Cafe" (default: beside the agent)')
    join.add_argument("--say", nargs=2, action="append", metavar=("AGENT", "TEXT"), help="a line to an agent")
    join.add_argument(
        "--stay",
        type=float,
        default=0.0,
        metavar="MINUTES",
        help="simulated minutes to stay before leaving, seen by the agents around (default: 0)",
    )

    change = _run_command(
        commands,
        "set",
        "smallville.commands.intervene:set_object",
        help="give an object of the world a new state (the paper's 'the stove is burning')",
        description="Set an object's state in plain words at the run's last checkpoint or --at a later time; the "
        "agents who see it notice it and may react. Resume the run to see what follows.",
    )
    change.add_argument("address", help='the object\'s address, e.g. "the Ville:Hobbs Cafe:cafe:cooking area"')
    change.add_argument("state", type=option_types.statement, help='its new state, e.g. "burning"')
    change.add_argument("--at", type=option_types.until, help="a later simulated time, e.g. 2023-02-13T08:00")


def _add_fork_commands(commands, add_model_options) -> None:
    """The commands of "what if": fork a run at a moment with a change, and compare two runs."""
    fork = commands.add_parser(
        "fork",
        help="a new run from a moment of a run, with a change (what if)",
        description="Start a new run from RUN at --at with a change: interventions and/or new parameters (any model "
        "option but --scenario, --agents, --seconds-per-step, --embedder). The shared past replays from the kept "
        "checkpoint before --at (from the response cache: no model call when cached). No change: the same run.",
    )
    fork.add_argument("run", type=option_types.path_text, help="the run folder to fork")
    fork.add_argument("--at", type=option_types.until, required=True, help="the moment, e.g. 2023-02-13T08:00")
    fork.add_argument("--out", type=option_types.out_folder, required=True, help="the new run folder (must not exist)")
    text = option_types.change_text  # the texts `whisper` and `set` take, checked as theirs are
    fork.add_argument("--whisper", nargs=2, type=text, action="append", metavar=("AGENT", "STATEMENT"),
                      help="whisper at --at")  # fmt: skip
    fork.add_argument("--set", nargs=2, type=text, action="append", metavar=("ADDRESS", "STATE"),
                      help="an object's state at --at")  # fmt: skip
    fork.add_argument("--broadcast", type=text, action="append", metavar="TEXT", help="a memory for everyone at --at")
    fork_end = fork.add_mutually_exclusive_group()
    fork_end.add_argument("--days", type=option_types.days, help="simulated days from the start (default: the run's)")
    fork_end.add_argument("--until", type=option_types.until, help="a simulated end time (default: the run's)")
    add_model_options(fork, "fork")
    for action in fork._actions:  # a model option counts as a change only when given
        if action.dest not in {"run", "at", "out", "whisper", "set", "broadcast", "days", "until", "help"}:
            action.default = argparse.SUPPRESS
    add_fallback_options(fork)
    fork.set_defaults(handler="smallville.commands.fork:run")

    compare = commands.add_parser(
        "compare",
        help="where two runs first differ and what changed, with plots of both",
        description="Compare two runs at their last checkpoints: the first event that differs, then who knows "
        "what, who met whom, density, attendance, calls and cost at the latest moment both reached; plots both "
        "timelines. Writes into --out (default: A/compare/<B's name>). Without B (or with --without-player), A is "
        "compared with A replayed from before its player joined with the player taken out.",
    )
    compare.add_argument("a", metavar="A", type=option_types.path_text, help="a run folder (e.g. the original)")
    compare.add_argument("b", metavar="B", type=option_types.path_text, nargs="?",
                         help="another run folder (e.g. its fork); left out: A without its player")  # fmt: skip
    compare.add_argument("--without-player", nargs="?", const="", metavar="NAME",
                         help="compare A with A replayed without its player (name one if several joined)")  # fmt: skip
    compare.add_argument("--baseline", type=option_types.out_folder, metavar="DIR",
                         help="where the run without the player goes (default: beside A, A-without-NAME)")  # fmt: skip
    compare.add_argument("--out", type=option_types.out_folder, help="folder for the plots and summary.md")
    compare.set_defaults(handler="smallville.commands.compare:run")


def _add_view_commands(commands, add_model_options) -> None:
    """The commands that show a town or a run: serve and report."""
    serve = commands.add_parser(
        "serve",
        help="watch the town in the browser (Solara)",
        description="Serve the browser app: a new model with these options, or the replay of a run folder.",
    )
    add_model_options(serve, "serve")
    serve.add_argument(
        "replay_run", nargs="?", metavar="RUN", help="a run folder to replay instead of a new model (no model calls)"
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=option_types.port, default=8765, help="port (default: 8765)")
    serve.add_argument(
        "--beside", metavar="OTHER_RUN", help="replay another run beside RUN on the same time slider (e.g. its fork)"
    )
    serve.set_defaults(handler="smallville.commands.serve:run")
    report = _run_command(
        commands,
        "report",
        "smallville.commands.report:run",
        help="plots and a summary of a run",
        description="Write PNG plots and summary.md into RUN/report (or --out).",
    )
    report.add_argument("--out", type=option_types.out_folder, help="folder to write into (default: RUN/report)")


def _add_study_commands(commands, add_model_options) -> None:
    """The commands that study runs: evaluate and batch."""
    evaluate = _run_command(
        commands,
        "evaluate",
        "smallville.commands.evaluate:run",
        help="the paper's evaluation of a run: interviews, judged believability, measures",
        description="Interview every agent under the paper's conditions, have a judge rank the answers (TrueSkill), "
        "and measure awareness, relationships and attendance by interview. Writes RUN/evaluation/; resumable.",
    )
    evaluate.add_argument("--at", help="the time to evaluate at, within the run (default: its last checkpoint)")
    evaluate.add_argument("--judge", help="litellm model that ranks answers and checks facts (default: the run's)")
    evaluate.add_argument("--llm", help="model the agents answer with (default: the run's)")
    evaluate.add_argument(
        "--conditions",
        help="comma-separated (default: full,no_reflection,no_reflection_planning,persona_only); NAME@original or "
        "NAME@1,2,1 retrieves with other weights",
    )
    evaluate.add_argument(
        "--repeats", type=option_types.repeats, default=2, help="rankings per question, in other orders (default: 2)"
    )
    evaluate.add_argument("--agents", help="comma-separated full names (default: every agent of the run)")
    evaluate.add_argument(
        "--battery",
        type=option_types.path_text,
        help="a battery .toml file or a name in data/evaluation/ (default: paper)",
    )
    evaluate.add_argument("--api-base", help="base URL of the server for --llm and --judge (default: the run's)")
    _add_budget(evaluate, "model calls this command may make (default: the run's budget)",
                "dollars this command may spend (default: the run's budget)")  # fmt: skip
    _add_batch(commands, add_model_options)


def _add_models_command(commands) -> None:
    """`run.py models check`: whether a model can run a town, before a day is spent on it."""
    models = commands.add_parser(
        "models", help="check that a model can run a town", description="Check language models before a run."
    )
    actions = models.add_subparsers(dest="models_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="one request of every kind, a table of how each went (exit 1: the model cannot run a town)",
        description="Send one request of every kind, from a small fixed town, through the real gateway: the form "
        "sent, parsed / repaired / fell back, latency, tokens and cost of each; exit 1 when the model cannot run a "
        "town. No request leaves this machine for the offline mind.",
    )
    which = check.add_mutually_exclusive_group(required=True)
    which.add_argument("--llm", help="a litellm model name, e.g. openai/gpt-5.4-mini")
    which.add_argument(
        "--matrix",
        metavar="A,B,C",
        help="several model names, comma-separated, side by side; NAME@URL gives one its own server's base URL",
    )
    check.add_argument("--api-base", help="base URL of a server of one's own (llama.cpp, vLLM, ollama)")
    check.add_argument("--judge", action="store_true", help="also the evaluation's kinds (judge, rank, fact checks)")
    check.add_argument(
        "--timeout", type=option_types.timeout, default=25.0, help="seconds a call may take (default: 25)"
    )
    check.add_argument(
        "--reasoning-effort",
        type=_reasoning_effort,
        default="minimal",
        help="none, minimal, low, medium or high: how much a reasoning model thinks (default: minimal)",
    )
    check.set_defaults(handler="smallville.commands.models:run")


def _reasoning_effort(text: str) -> str:
    """`models check --reasoning-effort`, checked as simulate's is; its validator loads the agents only when used."""
    return on_first_use("smallville.settings.model_option_types:reasoning_effort")(text)


def _add_budget(parser: argparse.ArgumentParser, calls: str, cost: str) -> None:
    """--max-calls and --max-cost, with what they count for this command (simulate's come from the parameter table)."""
    parser.add_argument("--max-calls", type=option_types.max_calls, help=calls)
    parser.add_argument("--max-cost", type=option_types.max_cost, help=cost)


def _add_batch(commands, add_model_options) -> None:
    """`run.py batch`: its options are a grid's fields for the common case without a file."""
    batch = commands.add_parser(
        "batch",
        help="run a grid of conditions x seeds x scenarios (local processes or Ray)",
        description="Run every cell of a grid (a TOML file and/or the flags) into BATCH/cells/, then write "
        "results.csv/.parquet, summary.md and plots. Running the same command again resumes the batch.",
    )
    batch.add_argument(
        "grid", nargs="?", type=option_types.path_text, help="a grid file (TOML), e.g. data/batches/quick.toml"
    )
    batch.add_argument("--conditions", help="named conditions, e.g. full,no_reflection,no_planning,no_observation")
    batch.add_argument("--seeds", help='seeds: "0-9", "0,3,7" or a number')
    batch.add_argument("--scenario", help="scenario name(s), comma-separated")
    batch_when = batch.add_mutually_exclusive_group()
    batch_when.add_argument("--days", type=option_types.days, help="simulated days per cell (default: 1)")
    batch_when.add_argument(
        "--until", type=option_types.until, help="simulated end time of every cell, e.g. 2023-02-13T12:00"
    )
    add_model_options(batch, "batch", "add_batch_arguments")
    batch.add_argument(
        "--checkpoint-minutes",
        type=option_types.checkpoint_minutes,
        help="simulated minutes between checkpoints (default: 60)",
    )
    batch.add_argument("--evaluate", action="store_true", help="evaluate each finished cell (smallville.evaluation)")
    _add_budget(batch, "batch-wide budget of model calls; stops cleanly", "batch-wide budget in dollars; stops cleanly")
    batch.add_argument(
        "--out", type=option_types.out_folder, help="batch folder (default: batches/<grid>-<hash of the grid>)"
    )
    batch.add_argument(
        "--workers",
        type=option_types.ranged("workers"),
        help="cells at once (default: the machine's cores, or the cluster's)",
    )
    batch.add_argument("--ray", metavar="auto|ADDRESS", help="run the cells as Ray tasks on an existing cluster")
    batch.set_defaults(handler="smallville.commands.batch:run")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the command; errors a user can fix print one line and exit 1."""
    words = list(sys.argv[1:] if argv is None else argv)
    # The top level has no option taking a value, so the first word that is not an option names the command.
    parser = build_parser(next((word for word in words if not word.startswith("-")), None))
    try:
        args = parser.parse_args(words)
    except SystemExit as done:  # --help (0) or a usage mistake (2, its line already printed)
        return done.code if isinstance(done.code, int) else 2
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    handler = on_first_use(args.handler)
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except UserError as error:
        print(f"error: {on_one_line(str(error))}", file=sys.stderr)
        return 1
    except Exception:  # anything else is our bug: show it whole and ask for a report
        traceback.print_exc()
        print(f"{REPORT_BUG} (run.py {args.command} failed unexpectedly)", file=sys.stderr)
        return 70


REPORT_BUG = "this is a bug in Smallville-on-Mesa, not in your input: please report it with the traceback above"


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line naming the flag, what is wrong and where help is (exit 2)."""

    def error(self, message: str) -> NoReturn:
        """Print the mistake in one line and exit 2, argparse's code for a usage error."""
        self.exit(2, f"{self.prog}: error: {on_one_line(message)} (see {self.prog} --help)\n")


def on_one_line(message: str) -> str:
    """A refusal's message kept on its one line: a value quoted in it may hold line breaks (a folder named so)."""
    return message.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\r")


def add_fallback_options(parser: argparse.ArgumentParser) -> None:
    """When a run that fell back too often exits non-zero."""
    parser.add_argument(
        "--max-fallback-share",
        type=option_types.fallback_share,
        default=0.5,
        help="exit non-zero (3) when more than this share of the answers were fallbacks (default: 0.5)",
    )
    parser.add_argument("--accept-fallbacks", action="store_true", help="exit 0 whatever the share of fallbacks")


class UserError(Exception):
    """A mistake the user can fix (a bad name, a missing key, an existing folder): one line, no traceback."""
