"""`run.py join RUN --as NAME [--persona TEXT] [--at PLACE] [--say AGENT TEXT ...]`: be a person in the town.

The player joins at the run's last checkpoint, goes to --at, says each line in turn (walking up to the agent if it
is out of earshot) and prints the agent's answer, stays --stay simulated minutes (seen by whoever comes by), then
leaves, printing the lines an agent came up and said to the player meanwhile; the town steps while the agents
answer. Every move and line is kept in the run's timeline as an intervention, and the run is checkpointed: resume it
to see what follows, interview an agent about the player, or fork it (the player's lines are said again, never
asked again). The checkpoint it joins at is kept, so `run.py compare RUN` can replay the run without the player.
"""

import argparse
import sys
from datetime import timedelta

from smallville.cli import UserError
from smallville.commands.loading import load_run, save_checkpoint
from smallville.players.keeping import keep_moment
from smallville.players.visit import VisitError, checked_name, checked_place, go, join, leave, said_to, say
from smallville.scenarios.agent_names import UnknownAgent, resolve_agent
from smallville.settings.option_types import statement

# Who the player is when --persona is not given.
DEFAULT_PERSONA = "a visitor to the town"
# The longest stay of one join (simulated minutes): a day; a longer visit is several joins.
LONGEST_STAY = 24 * 60


def run(args: argparse.Namespace) -> int:
    """Check every input against the run, then join, go, say each line and print each answer, leave, checkpoint."""
    if not 0 <= args.stay <= LONGEST_STAY:
        raise UserError(f"--stay {args.stay:g}: give simulated minutes from 0 to {LONGEST_STAY}, e.g. 30")
    if not args.say and args.at is None:
        raise UserError('join: give --at PLACE, --say AGENT TEXT, or both, e.g. --say "Isabella Rodriguez" "Hello"')
    texts = [_line(agent, text) for agent, text in args.say or ()]  # before the run is opened: no wait to refuse
    model, store = load_run(args.run, write=True)
    try:
        try:
            name, lines, place = _checked(model, args, texts)
            if model.gateway.config.model == "offline":
                print("note: offline baseline: the answers are made by rules from the agent's memories, not by a "
                      "language model; the persona reaches the agents' memories but no model reads it")  # fmt: skip
            if name not in model.players:  # the moment before the join, kept: `compare RUN` replays from it
                keep_moment(store, model)
            _visit(model, name, args.persona or DEFAULT_PERSONA, place, lines, args.stay)
        except VisitError as error:
            raise UserError(str(error)) from None
        save_checkpoint(store, model)
        print(f"checkpoint at {model.now:%Y-%m-%d %H:%M}; run.py resume {args.run} goes on from here")
    finally:
        store.close()
        model.close()
    return 0


def _line(agent: str, text: str) -> str:
    """A line's text, checked as a whisper's statement is (plain, not empty, not too long)."""
    try:
        return statement(text)
    except argparse.ArgumentTypeError as error:
        raise UserError(f"--say {agent!r}: {str(error).replace('statement', 'line')}") from None


def _checked(model, args: argparse.Namespace, texts: list[str]) -> tuple[str, list[tuple[str, str]], str | None]:
    """The player's name, the lines (agent spelled as the town spells it), and the place: all checked first."""
    name = checked_name(model, args.player)
    lines = []
    for (agent, _), text in zip(args.say or (), texts, strict=True):
        try:
            lines.append((resolve_agent(agent, list(model.by_name)), text))
        except UnknownAgent as error:
            raise UserError(f"--say: {error}") from None
    place = checked_place(model, args.at) if args.at is not None else None
    return name, lines, place


def _visit(
    model, name: str, persona: str, place: str | None, lines: list[tuple[str, str]], stay_minutes: float
) -> None:
    """The visit itself: each line's answer printed as it comes, then the stay (the town steps, the player seen)."""
    if name not in model.players:
        join(model, name, persona, place, near=None if place else lines[0][0])
        print(f"{model.now:%H:%M:%S} {name} joins the town at {model.players.get(name).tile} "
              f"({model.ville.arena_address_at(model.players.get(name).tile)})")  # fmt: skip
    elif place is not None:
        go(model, name, place)
    for agent, text in lines:
        print(f"{model.now:%H:%M:%S} {name}: {text}")
        reply = say(model, name, agent, text)
        print(f"{model.now:%H:%M:%S} {reply.describe()}")
        sys.stdout.flush()
    if stay_minutes:
        since = model.now
        model.run_until(model.now + timedelta(minutes=stay_minutes))
        for when, heard in said_to(model, name, since):  # an agent may come up and talk to the player itself
            print(f"{when:%H:%M:%S} {heard.agent} (to {name}): {heard.line}")
        print(f"{model.now:%H:%M:%S} {name} stayed {stay_minutes:g} minutes")
    leave(model, name)
