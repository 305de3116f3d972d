"""GenerativeAgent: one of the town's people, a Mesa CellAgent whose mind is the paper's architecture.

Each step the model lets every agent `perceive` the same snapshot of the town, then asks it to `prepare`: an agent
that `needs_thought` returns a coroutine (`think`) that the model runs concurrently with the others'; an agent asleep,
or going on with its action with nothing new perceived, returns None and costs no model call. What a thought changes
in the town comes back as a `Decision` the model applies in agent order; then every agent `advance`s one tile.

It is a plain CellAgent, not a mesa-llm LLMAgent: an LLMAgent's step is one tool-using reasoning call on a private
ModuleLLM, while this agent's thinking is the paper's pipeline of typed requests through one shared gateway (cache,
cap, accounting). What a mesa-llm user can take from us is the memory: agents.StreamMemory offers the paper's memory
stream behind mesa-llm's Memory interface to any LLMAgent (examples/mesa_llm_memory.py).
"""

from collections.abc import Coroutine
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from mesa.discrete_space import CellAgent

from agents.agent_memory import AgentMemory, PendingMemory, mentioned_names
from agents.cognition.acting import IN_PLACE, in_place_action, next_action
from agents.cognition.asking import together
from agents.cognition.conversing import next_line, remember_conversation, summarize
from agents.cognition.perceiving import QuietLook, perceive
from agents.cognition.planning import plan_day, rewrite_schedule, summarize_day
from agents.cognition.reacting import ReactionOutcome, react, reaction_candidates
from agents.cognition.reflecting import reflect, reflection_due
from agents.cognition.scoring import ScoringRider, score_importance, settle_known, settle_pending
from agents.cognition.tending import objects_to_consider, tend
from agents.conversation import Conversation
from agents.decision import Decision
from agents.identity import Identity
from agents.inner_voice import in_own_voice
from agents.language.answers import ConversationTurn
from agents.mind import Mind
from agents.persona import Persona
from agents.records import PlanState, Reuse, SocialClock, TalkState
from agents.schedule import is_sleep, minute_of_day
from agents.world_view import AgentStatus, WorldView
from environment import Event, SpatialMemory
from memory import MemoryStream, NodeKind


class GenerativeAgent(CellAgent):
    """One of the town's people: identity, memories, spatial memory, and the records of what it plans and does.

    Attributes:
        name: Its full name (no identity of it changes the name).
        persona: What the data says of it (identity, seeded memories, reflection threshold).
        identity: Who it is now (its `currently` changes each day).
        memories: Its memory stream, with the queue of memories awaiting importance.
        spatial: The places it knows.
        plan: Today's schedule and the action in progress.
        talk: The talk in progress and a schedule rewrite to make.
        social: When it may next approach whom.
        reuse: Decompositions and places already asked for.
        journal: What this step did that the event log keeps, (kind, text, details), drained by the model.
    """

    def __init__(self, model, persona: Persona, *, mind: Mind, memories: AgentMemory, spatial: SpatialMemory, cell):
        super().__init__(model)
        self.cell = cell
        self.persona = persona
        self.mind = mind
        self.memories = memories
        self.spatial = spatial
        # The full name, which no identity of the agent changes: kept on the agent, as the step loops read it some
        # 4,500 times an agent-hour, and through the identity each read reached another object of a big heap.
        self.name: str = persona.identity.name
        self.identity: Identity = self._knowing_places(persona.identity)
        self.plan = PlanState()
        self.talk = TalkState()
        self.social = SocialClock()
        self.reuse = Reuse()
        self.journal: list[tuple[str, str, dict]] = []
        self._quiet_look: QuietLook | None = None  # the last look, if it found nothing new (see `perceive`)
        self._status: tuple | None = None  # (what it was made from, the status) (see `status`)
        self._shown: tuple[Any, Event] | None = None  # (action, the event it shows on its tile) (see `advance`)

    def __str__(self) -> str:
        return self.name

    @property
    def tile(self) -> tuple[int, int]:
        """Where the agent stands, (x, y)."""
        return tuple(self.cell.coordinate)

    @property
    def action(self):
        """The action in progress (None before the first)."""
        return self.plan.action

    @property
    def schedule(self):
        """Today's schedule (None before the first plan)."""
        return self.plan.schedule

    @property
    def conversation(self) -> Conversation | None:
        """The talk in progress, if any."""
        return self.talk.conversation

    @property
    def sleeping(self) -> bool:
        """Whether its current action is sleep."""
        return self.action is not None and is_sleep(self.action.description)

    @property
    def reflection_threshold(self) -> int:
        """Importance that triggers a reflection: the configured value, else the persona's."""
        return self.mind.config.reflection_threshold or self.persona.reflection_threshold

    def status(self) -> AgentStatus:
        """Its public face for this step's snapshot (kept while its tile, action, minutes and talk stay)."""
        action = self.action
        conversation = self.conversation
        key = (self.cell, action, action.minutes if action else None, conversation)
        kept = self._status
        if kept is not None and kept[0] == key:
            return kept[1]
        status = AgentStatus(
            name=self.name,
            tile=self.tile,
            activity=action.description if action else "",
            address=action.address if action else "",
            sleeping=self.sleeping,
            talking_with=conversation.partner_of(self.name) if conversation else None,
            action_ends=action.end if action else None,
            emoji=action.emoji if action else "",
        )
        self._status = (key, status)
        return status

    def _ask(self):
        return partial(self.mind.gateway.ask, agent=self.name)

    async def seed_memories(self, now: datetime) -> None:
        """Store the persona's seeded memories (the whisper CSV), their importance scored in batches."""
        seeds = tuple(in_own_voice(seed, self.name) for seed in self.persona.seeds)
        scores = await score_importance(self._ask(), self.identity, seeds)
        for text, score in zip(seeds, scores, strict=True):
            await self.memories.add(
                NodeKind.THOUGHT, text, created=now, importance=score, subject=self.name, keywords=mentioned_names(text)
            )

    # --- what is due: the one think-trigger, read by both `prepare` and `think` -------------------------------

    def _new_day_due(self, now: datetime) -> bool:
        return self.schedule is None or self.schedule.day != now.date()

    def _action_due(self, now: datetime) -> bool:
        return self.action is None or self.action.finished(now)

    def _scoring_due(self, now: datetime) -> bool:
        config = self.mind.config
        return self.memories.scoring_due(now, config.importance_batch_size, config.importance_batch_minutes)

    def _reflection_due(self) -> bool:
        return self.mind.config.reflection and reflection_due(self.memories, self.reflection_threshold)

    def _my_turn_to_talk(self) -> bool:
        conversation = self.conversation
        my_line = conversation.says_next(self.name)
        my_summary = conversation.ended and conversation.first == self.name
        return my_line or my_summary

    def _dozing(self, now: datetime) -> bool:
        return self.sleeping and not self.action.finished(now)

    def needs_thought(self, now: datetime, candidates: list[str | Event]) -> bool:
        """Whether this step needs a model call.

        It does on a new day, on its turn in a talk, with someone to react to, an action to find, a schedule to
        rewrite, memories to score, or a reflection due.
        """
        if self._new_day_due(now):
            return True
        if self.conversation is not None:
            return self._my_turn_to_talk() or self.talk.rewrite is not None
        if self._dozing(now):
            return False
        return bool(
            candidates
            or self._action_due(now)
            or self.talk.rewrite is not None
            or self._scoring_due(now)
            or self._reflection_due()
        )

    # --- deciding -----------------------------------------------------------------------------------------

    def perceive(self, view: WorldView) -> list[str | Event]:
        """Notice what is around and remember what is new; returns what it may react to, nearest first.

        Objects in sight in an unusual state (as events, environment.unusual; not only those just noticed, see
        agents/cognition/tending.py) come before people newly noticed (by name).

        An agent planning a new day, talking or asleep does not look around.
        """
        now = view.now
        if self._new_day_due(now) or self.conversation is not None or self._dozing(now):
            return []
        config = self.mind.config
        perception = perceive(view, self.name, self.tile, config, self.spatial, self.memories, self._quiet_look)
        self._quiet_look = perception.quiet
        me = view.agents[self.name]
        unusual = objects_to_consider(me, perception.unusual_objects(), now, self.social)
        if not perception.new:
            return unusual
        noticed = perception.new_agents(view.agents.keys())
        return [*unusual, *reaction_candidates(me, noticed, view, self.social, config)]

    def prepare(self, view: WorldView, candidates: list[str | Event]) -> Coroutine[Any, Any, Decision] | None:
        """The thinking this step needs, or None when it needs no model call.

        The thinking reads the talk as it stands now (a copy): the town may go on while it is in flight.
        """
        if not self.needs_thought(view.now, candidates):
            return None
        return self.think(view, candidates, self.conversation.copy() if self.conversation else None)

    async def think(
        self, view: WorldView, candidates: list[str | Event], conversation: Conversation | None
    ) -> Decision:
        """The model calls of one step, in the paper's order: plan, remember, talk or react, act, reflect.

        It reads only the step's snapshot, this agent and `conversation` (its talk as the step began), so what it
        decides does not depend on when its answers arrive.
        """
        await settle_known(self.memories)  # what it has seen before keeps the importance it had
        ask = ScoringRider(self._ask(), self.name, self.memories)  # the first request rates the queued memories
        now = view.now
        decision = Decision()
        retrievals = self.memories.retrievals
        if self._new_day_due(now):
            await self._new_day(ask, now)
        if conversation is not None:
            await self._converse_and_fit(ask, view, conversation, decision)
        elif candidates and isinstance(candidates[0], Event):  # an object in an unusual state, nearest first
            await self._tend(ask, view, candidates[0])
        else:
            self.talk.relationship = None  # said for a talk that did not start
            walking = self.action is not None and bool(self.action.path)
            outcome: ReactionOutcome = await react(
                ask, self.identity, self.memories, view, candidates, self.social, self.mind.config, walking
            )
            decision.talk_to = outcome.talk_to
            if outcome.talk_to and outcome.relationship:
                self.talk.relationship = (outcome.talk_to, outcome.relationship)
            if outcome.opening:
                decision.line = ConversationTurn(line=outcome.opening, end=False)
            self.talk.rewrite = outcome.wait or self.talk.rewrite
            if self.talk.rewrite is not None:
                await self._rewrite_schedule(ask, now)
        if conversation is None and self._action_due(now):
            await next_action(
                ask,
                self.identity,
                self.plan,
                self.reuse,
                self.spatial,
                self.memories,
                view,
                self.tile,
                self.mind.paths,
                self.mind.config.observation,
            )
        if self._scoring_due(now):  # no request carried them, and they have waited long enough
            await settle_pending(self._ask(), self.identity, self.memories)
        if self._reflection_due():
            for node in await reflect(self._ask(), self.identity, self.memories, now, self.mind.config):
                self.journal.append(
                    ("reflection", node.description, {"node": node.id, "cites": list(node.evidence_ids)})
                )
        if self.memories.retrievals != retrievals:
            self._journal_recall()
        return decision

    async def _tend(self, ask, view: WorldView, event: Event) -> None:
        """Decide on an object in an unusual state.

        An errand to it is fitted into the schedule as a wait is, its place known beforehand (the object itself), so
        the next action walks there.
        """
        errand = await tend(ask, self.identity, self.memories, view, event, self.social, self.mind.config)
        if errand is None:
            return
        self.reuse.action_choices[Reuse.key(self.identity.currently, errand.activity)] = errand.choice
        self.journal.append(
            (
                "reaction",
                errand.activity,
                {"object": event.subject, "state": event.description, "minutes": errand.minutes},
            )
        )
        self.talk.rewrite = (errand.activity, errand.minutes)
        await self._rewrite_schedule(ask, view.now)

    def _journal_recall(self) -> None:
        """Keep the latest retrieval (ids and the three scores) so a replay can show what the agent recalled."""
        recalled = [
            [
                item.node.id,
                round(item.score, 4),
                round(item.recency, 4),
                round(item.relevance, 4),
                round(item.importance, 4),
            ]
            for item in self.memories.last_retrieved
        ]
        self.journal.append(("recall", " | ".join(self.memories.last_focal_points), {"memories": recalled}))

    async def _new_day(self, ask, now: datetime) -> None:
        config = self.mind.config
        yesterday = ""
        if self.schedule is not None:
            await settle_pending(ask, self.identity, self.memories)
            self.identity, yesterday = await summarize_day(
                ask, self.identity, self.memories, self.schedule.day, now, config
            )
        self.identity = self._knowing_places(self.identity)  # the places learned yesterday, for the whole day
        self.reuse.keep_status(self.identity.currently)
        self.plan.schedule = await plan_day(ask, self.identity, self.memories, now, config, yesterday=yesterday)
        hourly = [[activity, minutes] for activity, minutes in self.schedule.hourly]
        self.journal.append(("plan", self.identity.currently, {"day": now.date().isoformat(), "blocks": hourly}))
        if self.action is not None:
            self.action.minutes = 0  # re-resolve from the new schedule

    async def _converse_and_fit(self, ask, view: WorldView, conversation: Conversation, decision: Decision) -> None:
        """Its line (or the talk's summary) and, at a talk's first step, the schedule rewritten around the talk.

        The two need nothing from each other, so they are asked together: one round of latency instead of two. Only
        one of them may rate the queued memories (the line if one is asked, else the rewrite), fixed here rather
        than by which request reaches the rider first, which would depend on timing.
        """
        if self.talk.rewrite is None:
            await self._converse(ask, view, conversation, decision)
            return
        speaks = conversation.says_next(self.name)
        plain = self._ask()
        await together(
            self._converse(ask if speaks else plain, view, conversation, decision),
            self._rewrite_schedule(plain if speaks else ask, view.now),
        )

    async def _converse(self, ask, view: WorldView, conversation: Conversation, decision: Decision) -> None:
        if conversation.says_next(self.name):
            place = view.ville.arena_address_at(self.tile)
            partner = conversation.partner_of(self.name)
            relationship = self.talk.relationship_with(partner)
            decision.line = await next_line(
                ask, self.identity, self.memories, conversation, place, view.now, self.mind.config, relationship
            )
            if decision.line.relationship:
                self.talk.relationship = (partner, decision.line.relationship)
        elif conversation.ended and conversation.first == self.name:
            decision.summary = await summarize(ask, conversation)

    async def _rewrite_schedule(self, ask, now: datetime) -> None:
        inserted, minutes = self.talk.rewrite
        self.talk.rewrite = None
        rewritten = await rewrite_schedule(ask, self.identity, self.schedule, inserted, minutes, minute_of_day(now))
        if rewritten and self.action is not None and not IN_PLACE.match(self.action.description):
            self.action.minutes = 0

    # --- applied by the model, in agent order ----------------------------------------------------------------

    def start_conversation(self, conversation: Conversation, now: datetime, minutes: int) -> None:
        """Stop where it stands and talk; the schedule is rewritten around the talk at the next step."""
        partner = conversation.partner_of(self.name)
        conversation.doing.setdefault(self.name, self.action.description if self.action else "")
        self.talk.conversation = conversation
        description = f"talking with {partner}"
        ville = self.model.ville
        here = ville.address_at(self.tile) or ville.arena_address_at(self.tile)
        self.plan.replace_action(in_place_action(description, here, now, minutes, self.name))
        self.talk.rewrite = (description, minutes)

    def end_conversation(self, summary, now: datetime) -> None:
        """Keep the talk and what it takes from it, start the pair's cool-down, and move on."""
        config = self.mind.config
        conversation = self.conversation
        remember_conversation(self.memories, self.name, conversation, summary, now)
        self.social.chats[conversation.partner_of(self.name)] = now + timedelta(seconds=config.chat_cooldown_seconds)
        self.social.paused_until = now + timedelta(minutes=config.pause_after_talk_minutes)
        self.talk.conversation = None
        self.talk.relationship = None
        if self.action is not None:
            self.action.minutes = 0

    async def whisper(self, statement: str, now: datetime) -> None:
        """The paper's inner voice: a memory handed to the agent in its own voice, its importance scored now.

        Every door (the `whisper` command, the page, a scenario's interventions) comes here; whatever person the
        statement is in, the agent keeps it as its own ("I am ..."), as its seeded memories are.
        """
        statement = in_own_voice(statement, self.name)
        (score,) = await score_importance(self._ask(), self.identity, [statement])
        await self.memories.add(
            NodeKind.THOUGHT,
            statement,
            created=now,
            importance=score,
            subject=self.name,
            predicate="was told",
            keywords=mentioned_names(statement),
        )

    def advance(self) -> None:
        """Walk one tile, take or release the object of its action, and show its event on its tile.

        Mesa's simultaneous-activation second phase: every agent has decided before any moves.
        """
        state = self.model.state
        if self.plan.release is not None:
            if self.plan.release.count(":") == 3:
                state.reset_object(self.plan.release)
            self.plan.release = None
        action = self.action
        if action is None:
            return
        if action.path:
            self.cell = self.model.grid[action.path.pop(0)]
        elif not action.in_use and action.object_state and action.address.count(":") == 3:
            state.set_object_state(action.address, Event(action.address, "is", "being used", action.object_state))
            action.in_use = True
        shown = self._shown
        if shown is None or shown[0] is not action:
            _, predicate, obj = action.event
            shown = self._shown = (action, Event(self.name, predicate or "is", obj, action.description))
        state.place_agent(self.name, self.tile, shown[1])

    def _knowing_places(self, identity: Identity) -> Identity:
        """The identity with the places the agent may choose now, as every request's stable start lists them."""
        return identity.with_world(self.spatial.choices(identity.name, identity.living_area))

    # --- checkpoints ------------------------------------------------------------------------------------------

    def get_state(self, *, stream: bool = True) -> dict:
        """Everything that makes this agent's future, as plain data (the conversation is the model's).

        With `stream=False` the memory stream is left out (a run folder keeps it in its memory store).
        """
        state = {
            "tile": list(self.tile),
            "currently": self.identity.currently,
            "plan": self.plan.get_state(),
            "talk": self.talk.get_state(),
            "social": self.social.get_state(),
            "reuse": self.reuse.get_state(),
            "pending": [memory.get_state() for memory in self.memories.pending],
            "journal": [[kind, text, details] for kind, text, details in self.journal],  # a thought's, not yet applied
            "spatial": self.spatial.get_state(),
            "world": self.identity.world,
        }
        if stream:
            self.memories.vectors_now()
            state["stream"] = self.memories.stream.get_state()
        return state

    def set_state(self, state: dict, stream: MemoryStream | None = None) -> None:
        """Restore what `get_state` saved; `stream` replaces the memory stream when the state has none."""
        self.cell = self.model.grid[tuple(state["tile"])]
        self.identity = self.identity.with_currently(state["currently"])
        self.plan.set_state(state["plan"])
        self.talk.set_state(state["talk"])
        self.social.set_state(state["social"])
        self.reuse.set_state(state["reuse"])
        self.memories.pending = [PendingMemory.from_state(memory) for memory in state["pending"]]
        self.journal = [(kind, text, details) for kind, text, details in state["journal"]]
        self.spatial.set_state(state["spatial"])
        # The places as today's requests list them (learned since, they wait for tomorrow: the same prompts as a run
        # that never stopped); a checkpoint from before they were kept lists today's.
        world = state.get("world")
        self.identity = replace(self.identity, world=world) if world else self._knowing_places(self.identity)
        self._quiet_look = None
        if "stream" in state:
            stream = MemoryStream.from_state(state["stream"])
        if stream is not None:
            self.memories.stream = stream
