"""How fast any engine could run a day's thoughts, from what one run recorded (bench_engine.py prints them).

The issue's ideal bound, max(busiest agent's calls, calls / cap) x latency, lets each agent's calls run beside the
others' as if the agents never met. A run that is the same at any latency cannot: a thought takes effect at a step
the simulation fixes (smallville/thinking.py), and what it decides then is seen by others, whose next thoughts
depend on it. The bounds here take the engine's own work as nothing and no cap on calls in flight; each
thought counts its rounds of calls (a call made while none of its other calls is in flight starts one; a round
takes as long as its slowest call: the latency, or with a spread each call's own draw) and their sum, its wait.

- `barrier_bound`: engines with one clock (this one). The end of step t comes no sooner than the end of step t - 1,
  nor sooner than the start of each thought due at t plus its wait.
- `free_clocks_bound`: engines that let agents out of each other's reach step on their own clocks (conservative
  parallel discrete-event simulation, built and measured on the branch free-clocks-experiment). Agent i's step t
  waits for agent k only to have finished step t - (d - radius) when they are d > radius tiles apart (Chebyshev; a
  walker moves a tile a step), and agents within the radius take the step together. A thinking agent stands still,
  so while it thinks the others need only its start. With the radius at the vision radius plus two tiles (what an
  agent sees, and the tile each may take in the step), it is below what any engine that keeps the run exact can do:
  the branch also had to wait for a thought's N steps of walking. With a `lookahead` of D steps, agents see each
  other D steps late (a perception delay, which the engine does not have: a what-if), so no two need take a step
  together: agent i's step t waits for agent k to have finished step t - max(d - radius, 0) - D. It bounds the same
  thoughts; a run with the delay would think otherwise.
- `talk_chain_bound`: the issue's ideal with the one dependency it leaves out that no engine keeping turn-by-turn
  talk can skip: a line of talk is asked only once the partner's line before it is in. Each agent's thoughts run
  one after another and a thought in a talk also waits for the partner's thoughts already applied when it began;
  no other agent, no cap, no N-step wait. The busiest agent's own calls are the chain when it never talks; in a
  talk its chain is both speakers' lines.
"""

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components


@dataclass
class Recording:
    """What a run's bounds are computed from.

    Attributes:
        thoughts: One dict per thought: agent, start step, due step, rounds of calls, their wait in seconds, and the
            talk partner it began with (None out of a talk).
        tiles: Per step, where each agent stood when it began (agents in the model's order).
        names: The agents' names in that order.
    """

    thoughts: list[dict] = field(default_factory=list)
    tiles: list[list[tuple[int, int]]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def barrier_bound(recording: Recording) -> float:
    """The earliest the last step can end with one clock for the town."""
    due_at: dict[int, list[dict]] = {}
    for thought in recording.thoughts:
        due_at.setdefault(thought["due"], []).append(thought)
    ends: dict[int, float] = {}  # the end of each step that a thought was due at or that came before one's start
    steps = sorted({thought["due"] for thought in recording.thoughts} | {t["start"] - 1 for t in recording.thoughts})
    end = 0.0
    for step in steps:
        for thought in due_at.get(step, ()):
            end = max(end, ends.get(thought["start"] - 1, 0.0) + thought["wait"])
        ends[step] = end
    return end


def free_clocks_bound(recording: Recording, radius: int, lookahead: int = 0) -> float:
    """The earliest the last agent can finish the recorded steps when agents farther apart than `radius` tiles need
    not wait for each other, and with a `lookahead`, agents within it neither (see the module's docstring)."""
    tiles = np.asarray(recording.tiles)  # (steps, agents, 2)
    steps, count = tiles.shape[:2]
    index = {name: position for position, name in enumerate(recording.names)}
    ends = np.zeros((steps + 1, count))  # ends[t + 1, k]: when agent k has finished step t; ends[0] = the start
    known = np.tile(np.arange(1, steps + 1)[:, None], (1, count))  # known[r, k]: the row of `ends` that fixes k at r
    due_at: dict[int, list[tuple[int, int, int]]] = {}
    for thought in recording.thoughts:
        agent, start, due = index[thought["agent"]], thought["start"], thought["due"]
        due_at.setdefault(due, []).append((agent, start, thought["wait"]))
        known[start : min(due, steps), agent] = start  # standing still: fixed once it began thinking
    agents = np.arange(count)
    others = ~np.eye(count, dtype=bool)
    for step in range(steps):
        ready = ends[step].copy()
        for agent, start, wait in due_at.get(step, ()):
            ready[agent] = max(ready[agent], ends[start, agent] + wait)
        apart = np.abs(tiles[step][:, None, :] - tiles[step][None, :, :]).max(axis=2)
        behind = step - np.maximum(apart - radius, 0) - lookahead  # the step another agent must have finished
        waits = (others if lookahead else apart > radius) & (behind >= 0)
        if waits.any():
            rows = known[np.clip(behind, 0, steps - 1), agents[None, :]]
            ready = np.maximum(ready, np.where(waits, ends[rows, agents[None, :]], 0.0).max(axis=1))
        ends[step + 1] = ready
        if lookahead:
            continue  # no one waits for a step taken at the same time
        _, group = connected_components(csr_matrix(apart <= radius), directed=False)
        for member_of in np.unique(group):
            members = group == member_of
            ends[step + 1, members] = ready[members].max()
    return float(ends[steps].max())


def talk_chain_bound(recording: Recording) -> float:
    """The longest chain of calls in the run when only an agent's own thoughts and its talk partner's lines are
    waited for (see the module's docstring)."""
    applied: dict[str, list[tuple[int, float]]] = {}  # per agent, (due step, end) of its thoughts in start order
    longest = 0.0
    for thought in sorted(recording.thoughts, key=lambda thought: thought["start"]):
        agent, start = thought["agent"], thought["start"]
        ready = max((end for _, end in applied.get(agent, [])[-1:]), default=0.0)
        partner = thought.get("partner")
        if partner is not None:
            ready = max(ready, max((end for due, end in applied.get(partner, []) if due < start), default=0.0))
        end = ready + thought["wait"]
        applied.setdefault(agent, []).append((thought["due"], end))
        longest = max(longest, end)
    return longest
