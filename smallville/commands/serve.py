"""`run.py serve`: the browser app (Solara), live on a new model or replaying a run folder, on 127.0.0.1.

The options are checked here, so a mistake is one clear line instead of an error page; then `solara run` serves
smallville.app.page in production mode, with its JavaScript from the local asset cache (solara-assets), no
telemetry and no version check: neither the page nor the server makes a request beyond this machine.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from smallville.cli import UserError
from smallville.options import model_kwargs

ROOT = Path(__file__).resolve().parents[2]


def settings_for(args: argparse.Namespace) -> dict:
    """What the page builds: the replay of a run folder, or a model with the command line's arguments."""
    if args.replay_run:
        return {"replay": str(Path(args.replay_run).resolve())}
    return {"model": model_kwargs(args)}


def check(settings: dict) -> None:
    """Fail before the server starts when the scenario, the model name or the run folder is wrong.

    Raises:
        UserError: Naming what is wrong and how to fix it.
    """
    from agents import check_model  # noqa: PLC0415 - heavy
    from smallville.run_store import RunFolderError  # noqa: PLC0415
    from smallville.scenario import ScenarioError, load_scenario  # noqa: PLC0415

    try:
        if "replay" in settings:
            from smallville.app.replay import ReplayModel  # noqa: PLC0415

            ReplayModel(run_folder=settings["replay"]).close()
            return
        kwargs = settings["model"]
        for name in {kwargs["llm"], *(kwargs["routes"] or {}).values()}:
            check_model(name)
        load_scenario(kwargs["scenario_name"]).select(kwargs["agents"])
    except (ValueError, ScenarioError, RunFolderError) as error:
        raise UserError(str(error).splitlines()[0]) from error


def solara_command(host: str, port: int) -> list[str]:
    """The `solara run` command line for the page."""
    return [
        sys.executable,
        "-m",
        "solara",
        "run",
        "smallville.app.page",
        "--host",
        host,
        "--port",
        str(port),
        "--no-open",
        "--production",
        "--no-check-version",  # otherwise solara asks pypi.org for its newest version at every start
    ]


def run(args: argparse.Namespace) -> int:
    """Check the options, then serve the page until interrupted."""
    settings = settings_for(args)
    check(settings)
    env = {
        **os.environ,
        "SMALLVILLE_SERVE": json.dumps(settings),
        "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    print(f"serving the Ville on http://{args.host}:{args.port} (Ctrl-C stops)", file=sys.stderr)
    return subprocess.call(solara_command(args.host, args.port), env=env, cwd=ROOT)
