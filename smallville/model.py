"""SmallvilleModel: the Ville and its generative agents as a Mesa model.

One step is 10 simulated seconds (the original's). Every agent decides on the same snapshot of the town; their
model calls run concurrently under the gateway's cap; their decisions are applied in the scenario's agent order, so
a seed and a response cache reproduce a run exactly.
"""

import asyncio
import inspect
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import partial
from math import ceil
from pathlib import Path

import mesa
from mesa.time import EventGenerator, Priority, Schedule

from agents import AgentStatus, Conversation, Gateway, GatewayConfig, GenerativeAgent, Mind, MindConfig, WorldView
from agents.cognition import interview
from agents.language import PromptLog, budget_checked_by_caller
from environment import WorldState, make_grid
from memory import RetrievalWeights, embed_async
from smallville.conversations import apply_decisions
from smallville.heap import collector_paused
from smallville.interventions.applying import apply_intervention, check_interventions
from smallville.interventions.records import Intervention, Timeline, parse_interventions
from smallville.players import Players, end_due_talks, player_statuses
from smallville.reporters import make_datacollector
from smallville.scenarios.scenario import Scenario, load_scenario
from smallville.settings.parameters import MIND_SETTINGS, resolve, signature
from smallville.social import SocialTracker
from smallville.thinking import Thoughts
from smallville.town import build_people, town_map

logger = logging.getLogger(__name__)


class SmallvilleModel(mesa.Model):
    """The town, a Mesa model of the Ville and its generative agents.

    Every parameter is a keyword argument with a default, declared once in settings/parameters.py (the same names
    as the CLI's flags, the browser's controls and a batch grid's keys); `help(SmallvilleModel)` shows them all.

    The main ones: `scenario_name` (a scenario in data/scenarios/ or a path; not `scenario`, which Mesa reserves),
    `agents` (all, the first n, or names), `llm` ("offline" or any litellm name), `embedder`, `rng` (the seed: the
    same seed and cache reproduce a run), the ablation switches `planning`, `reflection`, `observation`, and every
    field of agents.MindConfig.

    Args:
        seed_memories: False when a checkpoint is about to be restored into the model (resume, interview, whisper):
            the persona's seeded memories are then not scored, which would spend model calls the restore discards.
        prompt_log: A file to write every rendered prompt and its answer to, as JSON lines (agents.PromptLog), from
            the seeded memories' ratings on; None keeps none.
        **settings: The town's parameters (smallville/settings/parameters.py); an unknown name is a TypeError.
    """

    @collector_paused()  # the build makes millions of lasting objects: no collection walks them meanwhile (heap.py)
    def __init__(self, *, seed_memories: bool = True, prompt_log: str | Path | None = None, **settings):
        values = resolve(settings)
        super().__init__(rng=values["rng"])
        self.setting: Scenario = load_scenario(values["scenario_name"]).select(values["agents"])
        self.seed = values["rng"] if isinstance(values["rng"], int) else 0
        self.seconds_per_step = values["seconds_per_step"] or self.setting.seconds_per_step
        self.start = self.setting.start
        self.step_count = 0
        self.collect_every = values["collect_every"]
        self.thinking_steps = values["thinking_steps"]
        self.talk_thinking_steps = values["talk_thinking_steps"]
        mind_settings = {name: values[name] for name in MIND_SETTINGS}
        mind_settings["retrieval_weights"] = RetrievalWeights.parse(values["retrieval_weights"])
        self.config = MindConfig(**mind_settings)
        self.gateway = Gateway(
            GatewayConfig(
                model=values["llm"],
                routes=dict(values["routes"] or {}),
                seed=self.seed,
                cache_path=values["cache_path"],
                replay=values["replay"],
                max_in_flight=values["max_in_flight"],
                timeout_s=values["timeout"],
                structured=values["structured_output"],
                reasoning_effort=values["reasoning_effort"],
                api_base=values["api_base"],
                max_calls=values["max_calls"],
                max_cost=values["max_cost"],
            )
        )
        if prompt_log is not None:
            self.gateway.prompt_log = PromptLog(prompt_log)
        self.ville, self.paths = town_map(self.setting)
        self.grid = make_grid(self.ville, self.random)
        self.state = WorldState(self.ville)
        self.mind = Mind(gateway=self.gateway, config=self.config, ville=self.ville, paths=self.paths)
        self._loop = asyncio.new_event_loop()
        self.thoughts = Thoughts(self._loop)
        self.torn = False  # a step or its thoughts failed half-way: no checkpoint of it (see `_tears`)
        # The browser app steps in a worker thread and may interview from another: one user of the loop at a time.
        self._loop_lock = threading.Lock()
        self.conversations = []
        self.event_log: list[dict] = []
        self.embedder_name = values["embedder"]
        self.people: list[GenerativeAgent] = build_people(self, self.embedder_name, values["embedding_cache"])
        self.by_name = {agent.name: agent for agent in self.people}
        self.players = Players()  # people who joined from outside (smallville/players/)
        if seed_memories:
            self.run_async(self._seed_memories())
        self.social = SocialTracker(self.setting.agent_names, self.setting.facts, self.setting.gathering)
        self.social.start(self.now)
        self.timeline = self._timeline(values["interventions"])
        self.datacollector = make_datacollector(self.setting.facts)
        self.statuses: dict[str, AgentStatus] = {}  # what the others could see at the last collection
        self.collect()

    def _timeline(self, given: list | None) -> Timeline:
        """The scenario's interventions and those given (a file's, a batch grid's), checked against the town."""
        given_items = parse_interventions(list(given or []), "interventions")
        for items, where in (
            (self.setting.interventions, f"scenario {self.setting.name}"),
            (given_items, "interventions"),
        ):
            check_interventions(items, self.setting.agent_names, self.ville, where, start=self.start)
        return Timeline([*self.setting.interventions, *given_items])

    @property
    def now(self) -> datetime:
        """The simulated time at the start of the next step."""
        return self.time_at(self.step_count)

    def time_at(self, step: int) -> datetime:
        """The simulated time at the start of this step (the end of the one before)."""
        return self.start + timedelta(seconds=self.seconds_per_step * step)

    def run_async(self, coroutine):
        """Run a coroutine on the model's own event loop (one loop for the model's life), one caller at a time.

        Called from a thread whose own loop is running (a Solara render or event handler), the model's loop runs in
        a helper thread instead: one thread cannot run two loops.
        """
        with self._loop_lock:
            if asyncio._get_running_loop() is None:
                return self._loop.run_until_complete(coroutine)
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="smallville-loop") as helper:
                return helper.submit(self._loop.run_until_complete, coroutine).result()

    async def _seed_memories(self) -> None:
        # Every persona's seeds embedded in one batch first (the agents share one text-cached embedder): one encoder
        # call for the town instead of one per memory.
        embedder = self.people[0].memories.embedder if self.people else None
        if embedder is not None:
            await embed_async(
                embedder, list(dict.fromkeys(seed for agent in self.people for seed in agent.persona.seeds))
            )
        await asyncio.gather(*(agent.seed_memories(self.now) for agent in self.people))

    def snapshot(self) -> WorldView:
        """The town as every agent sees it at the start of this step: the agents, then the players who joined."""
        agents = {agent.name: self.public_status(agent) for agent in self.people}
        if self.players:
            agents.update(player_statuses(self))
        return WorldView(now=self.now, step=self.step_count, ville=self.ville, state=self.state, agents=agents)

    def thought_takes_effect(self, name: str) -> datetime | None:
        """When this agent's thought in flight takes effect, the end of its due step (None when it is not thinking)."""
        if name not in self.thoughts:
            return None
        return self.time_at(self.thoughts[name].due + 1)

    def public_status(self, agent: GenerativeAgent) -> AgentStatus:
        """An agent's public face: while a thought is in flight, what it was doing when it started."""
        return self.thoughts.shown(agent.name) or agent.status()

    def step(self) -> None:
        """Snapshot, perceive, think (concurrently), apply in agent order, move, collect.

        A thought started now that asks a model takes effect at the end of step `now + thinking_steps` (a line of
        talk `now + talk_thinking_steps`; smallville/thinking.py), one that asks none at the end of this step: 0 is
        the paper's lock-step, where this step waits for every thought; with more, the town keeps stepping while
        thoughts are in flight and waits only for those due. When a thought takes effect is fixed by the
        simulation, never by when its answer arrived, so a run is the same at any latency.

        The budget (max_calls, max_cost) is checked before the step: BudgetExceeded leaves the town between two
        steps, its thoughts in flight intact, and a run resumed with more budget goes on exactly.
        """
        self.gateway.check_budget()  # between steps: a step, once begun, is never cut in half by the budget
        with budget_checked_by_caller(), self._tears():
            self._step()

    @contextmanager
    def _tears(self):
        """Mark the town torn if this block fails: a step or its thoughts stopped half-way (a model that died).

        A torn town cannot be checkpointed: its thoughts in flight were dropped half done, and a checkpoint of it
        would start them again on resume, their decisions a whole thinking window late. Its run resumes from the
        last checkpoint instead, with the answers received since replayed (agents/language/journal.py).
        """
        try:
            yield
        except BaseException:
            self.torn = True
            raise

    def _step(self) -> None:
        self.intervene()
        view = self.snapshot()
        free = [agent for agent in self.people if agent.name not in self.thoughts]
        noticed = [agent.perceive(view) for agent in free]
        delayed = []
        for agent, candidates in zip(free, noticed, strict=True):
            thinking = agent.prepare(view, candidates)
            if thinking is not None:
                steps = self.steps_to_think(agent)
                self.thoughts.start(agent.name, thinking, view.agents[agent.name], self.step_count + steps)
                if steps:
                    delayed.append(agent.name)
        if delayed:  # a thought that asks no model takes effect now, as in lock-step
            self.run_async(self.thoughts.sort_out(delayed, self.step_count))
        self._apply_thoughts(self.thoughts.due(self.step_count), view)
        for agent in self.people:
            if agent.name not in self.thoughts:
                agent.advance()
        self._log_actions(view)
        self.step_count += 1
        if self.step_count % self.collect_every == 0:
            self.collect()

    def steps_to_think(self, agent: GenerativeAgent) -> int:
        """How many steps after its own the thought this agent starts now takes effect, if it asks a model.

        A line of talk (or the talk's summary) has `talk_thinking_steps`, any other thought `thinking_steps`: the
        partner waits for the line, and the same N for both would stretch an 8-line talk from 1.3 simulated minutes
        to 28 at N = 20 (README, "Thinking that overlaps time").
        """
        return self.talk_thinking_steps if agent.conversation is not None else self.thinking_steps

    def _apply_thoughts(self, names: list[str], view: WorldView) -> None:
        """Wait for these agents' thoughts, then apply what waited for them and their decisions, in agent order."""
        if not names:
            if self.thoughts:
                self.run_async(asyncio.sleep(0))  # the thoughts just started send their first calls now
            return
        answered = self.run_async(self.thoughts.answer(names))
        for agent in self.people:
            for summary, ended in answered[agent.name].talks_ended if agent.name in answered else ():
                agent.end_conversation(summary, ended)
        decisions = [answered[agent.name].decision if agent.name in answered else None for agent in self.people]
        apply_decisions(self, decisions, view)

    def settle(self, names: list[str] | None = None) -> None:
        """Answer and apply the thoughts in flight now (every one, or these agents'), before an intervention.

        A user's whisper, remembered interview or any other intervention changes what the thoughts read. The run
        then departs from the uninterrupted one, as any intervention does.
        """
        thinking = [name for name in (self.thoughts if names is None else names) if name in self.thoughts]
        if thinking:
            view = self.snapshot()
            with self._tears():
                self._apply_thoughts(thinking, view)
            self._log_actions(view)

    def intervene(self) -> None:
        """Apply the timeline's interventions whose time has come, in order, each logged (interventions/applying.py).

        The players' talks that are over end first (smallville/players/talks.py).
        """
        end_due_talks(self)
        for item in self.timeline.due(self.now):
            apply_intervention(self, item)
            self.timeline.applied += 1

    def collect(self) -> None:
        """Bring the social metrics up to date, then record a DataCollector row (of what the others can see)."""
        self.statuses = {agent.name: self.public_status(agent) for agent in self.people}
        self.social.update([agent for agent in self.people if agent.name not in self.thoughts], self.now)
        self.datacollector.collect(self)

    def conversation_minutes(self) -> int:
        """How long a talk is planned to take in the schedule: its most lines, rounded up to 5 minutes."""
        return 5 * ceil(self.config.max_conversation_lines * self.seconds_per_step / 60 / 5)

    def _log_actions(self, view: WorldView) -> None:
        for agent in self.people:
            if agent.name in self.thoughts:
                continue  # what it does and thinks is logged when its thought is applied
            before = view.agents[agent.name]
            if agent.action is not None and agent.action.description != before.activity:
                self.log(agent.name, "action", agent.action.description, address=agent.action.address)
            for kind, text, details in agent.journal:
                self.log(agent.name, kind, text, **details)
            agent.journal.clear()

    def interview(self, name: str, question: str, *, remember: bool = False, asker: str = "") -> str:
        """An agent's in-character answer from its memories (the CLI's `interview` and the app's box).

        It answers an interviewer, or the person `asker` describes ("a news reporter from the Ville Gazette").
        """
        if remember:
            self.settle()
        agent = self.by_name[name]
        ask = partial(self.gateway.ask, agent=name)
        return self.run_async(
            interview(
                ask, agent.identity, agent.memories, question, self.now, self.config, remember=remember, asker=asker
            )
        )

    def whisper(self, name: str, statement: str) -> None:
        """Give an agent a memory now, the paper's inner voice (the CLI's `whisper` and the app's box)."""
        self.intervene_now(Intervention(time=self.now, kind="whisper", target=name, text=statement))

    def intervene_now(self, item: Intervention) -> None:
        """Add an intervention at the current time to the timeline and apply it (with any other due now)."""
        check_interventions([item], self.setting.agent_names, self.ville, "intervention")
        self.timeline.add(item.model_copy(update={"time": self.now}))
        self.intervene()

    def log(self, agent: str, kind: str, text: str, **details) -> None:
        """Add an entry to the event log (actions, talks and their lines, plans, reflections)."""
        self.event_log.append({"time": self.now.isoformat(), "agent": agent, "kind": kind, "text": text, **details})

    def run_until(self, end: datetime) -> None:
        """Step until the simulated clock reaches `end`."""
        while self.now < end:
            self.step()

    def get_state(self, *, streams: bool = True, ledger: bool = True) -> dict:
        """The whole state of the town as plain data: clock, RNGs, world, talks, agents, metrics, costs.

        With `streams=False` the agents' memory streams are left out (a run folder keeps them in its store), and with
        `ledger=False` the record of every model call (a run folder keeps it in its `calls` table).
        Thoughts in flight are finished first and kept with their decisions (see `finish_thoughts`).
        """
        self.finish_thoughts()
        version, internal, gauss = self.random.getstate()
        state = {
            "step_count": self.step_count,
            "random": [version, list(internal), gauss],
            "numpy_rng": self.rng.bit_generator.state,
            "world": self.state.get_state(),
            "conversations": [conversation.get_state() for conversation in self.conversations],
            "agents": {agent.name: agent.get_state(stream=streams) for agent in self.people},
            "social": self.social.get_state(),
            "thoughts": self.thoughts.get_state(),
            "interventions": self.timeline.get_state(),
            "gateway": self.gateway.get_state(),
        }
        if ledger:
            state["ledger"] = self.gateway.ledger.get_state()
        if self.players:  # people who joined from outside (a run without them checkpoints as before)
            state["players"] = self.players.get_state()
        return state

    def finish_thoughts(self) -> None:
        """Wait for every thought in flight to be decided, applying none: they take effect at their own steps.

        Before a checkpoint: the thinking agents' own records then hold what their thoughts did, and the decisions
        still to apply go into the checkpoint, so a restored run goes on exactly as the uninterrupted one. The
        memories stored before their vectors arrived (agents/agent_memory.py) get them too, so the streams can be saved.
        """
        if self.thoughts:
            with self._tears():
                self.run_async(self.thoughts.finish())
        self.fill_vectors()

    def fill_vectors(self) -> None:
        """Wait for the vectors of the memories stored before theirs arrived, and fill them in (see AgentMemory)."""
        for agent in self.people:
            if agent.memories.awaiting_vectors:  # all asked for already: waiting in turn costs no more than at once
                self.run_async(agent.memories.vectors_arrived())

    def set_state(self, state: dict, streams: dict | None = None) -> None:
        """Restore `get_state`'s data into a model built with the same parameters."""
        self.step_count = state["step_count"]
        self._set_mesa_clock(self.step_count)
        version, internal, gauss = state["random"]
        self.random.setstate((version, tuple(internal), gauss))
        self.rng.bit_generator.state = state["numpy_rng"]
        self.state.set_state(state["world"])
        for agent in self.people:
            stream = (streams or {}).get(agent.name)
            agent.set_state(state["agents"][agent.name], stream)
        self.conversations = [Conversation.from_state(data) for data in state["conversations"]]
        for conversation in self.conversations:
            for name in (conversation.first, conversation.second):
                if name in self.by_name:  # not a player's (smallville/players/)
                    self.by_name[name].talk.conversation = conversation
        self.social.set_state(state["social"])
        self.gateway.ledger.set_state(state["ledger"])
        self.gateway.set_state(state.get("gateway", {}))  # absent from checkpoints written before it
        self.thoughts.set_state(state["thoughts"])
        self.players.set_state(state.get("players", []))  # absent from checkpoints written before players
        if "interventions" in state:
            self.timeline.set_state(state["interventions"])
        else:  # a checkpoint from before timelines: what the config gives is applied when due
            self.timeline.applied = sum(item.time < self.now for item in self.timeline.items)

    def _set_mesa_clock(self, steps: int) -> None:
        """Make Mesa's own step count and time agree with a restored run's (they count from the model's build).

        Mesa 3.5 steps through an event generator scheduled from time 1.0; after a restore its next event must be
        at `steps + 1`, or Mesa would replay every step from the first. This touches Mesa's private schedule, so
        tests/smallville/test_model.py checks it against Mesa's own count after more steps.
        """
        self._default_schedule.stop()
        self.steps = steps
        self.time = float(steps)
        self._default_schedule = EventGenerator(
            self, self._do_step, Schedule(interval=1.0, start=steps + 1.0), priority=Priority.HIGH
        ).start()

    def close(self) -> None:
        """Release the event loop and the gateway's resources (thoughts still in flight are dropped).

        The vectors still being encoded are waited for: the streams stay whole for whoever reads them afterwards, and
        no request to an embedding API is left running. If they cannot come (the API is gone), closing goes on.
        """
        if self.thoughts:
            self.run_async(self.thoughts.drop())
        try:
            self.fill_vectors()
        except Exception as error:  # closing after a failure must not hide it: say so and release the rest
            logger.warning("closing with memories whose vectors did not arrive: %s", error)
        self.run_async(self.gateway.aclose())
        self.gateway.close()
        self._loop.close()


SmallvilleModel.__init__.__signature__ = signature(
    (inspect.Parameter("seed_memories", inspect.Parameter.KEYWORD_ONLY, default=True),)
)
