"""GenerativeAgent: a mesa-llm LLMAgent on the Ville's grid whose mind is the paper's architecture.

Each step the model asks every agent to `prepare` on the same snapshot of the town. A sleeping agent, or one going
on with its action with nothing new perceived, returns nothing and costs no model call; otherwise it returns a
coroutine (`think`) that the model runs concurrently with the others'. What a thought changes in the town comes back
as a `Decision` the model applies in agent order; then every agent `advance`s one tile.
"""

import logging
from collections.abc import Coroutine
from dataclasses import asdict
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from mesa.discrete_space import CellAgent
from mesa_llm.llm_agent import LLMAgent

from agents.action import CurrentAction
from agents.agent_memory import AgentMemory, PendingMemory, mentioned_names
from agents.cognition.acting import IN_PLACE, choice_address, in_place_action, minutes_left, resolve_action, route
from agents.cognition.conversing import next_line, remember_conversation, summarize
from agents.cognition.perceiving import perceive
from agents.cognition.planning import decompose_slot, plan_day, summarize_day
from agents.cognition.reacting import decide_reaction, may_react
from agents.cognition.reflecting import reflect, reflection_due
from agents.conversation import Conversation
from agents.decision import Decision
from agents.identity import Identity
from agents.language.answers import ActionChoice, PlanBlock
from agents.language.requests import ImportanceRequest, ScheduleRewriteRequest
from agents.mind import Mind
from agents.persona import Persona
from agents.schedule import DaySchedule, is_sleep
from agents.world_view import AgentStatus, WorldView
from environment import Event, SpatialMemory, WorldState
from memory import NodeKind

logger = logging.getLogger(__name__)

# The importance request scores at most this many memories at once.
IMPORTANCE_REQUEST_SIZE = 20


def minute_of_day(now: datetime) -> int:
    """Minutes since midnight."""
    return now.hour * 60 + now.minute


class GenerativeAgent(LLMAgent, CellAgent):
    """One of the town's people: identity, memory stream, spatial memory, day plan and current action."""

    def __init__(self, model, persona: Persona, *, mind: Mind, memories: AgentMemory, spatial: SpatialMemory, cell):
        # LLMAgent.__init__ demands an API key and builds an LLM-backed memory we do not use: initialize the Mesa
        # side, then set the attributes mesa-llm's LLMAgent methods read.
        super(LLMAgent, self).__init__(model)
        self.cell = cell
        self.persona = persona
        self.identity: Identity = persona.identity
        self.mind = mind
        self.memories = memories
        self.spatial = spatial
        self.schedule: DaySchedule | None = None
        self.action: CurrentAction | None = None
        self.conversation: Conversation | None = None
        self.rewrite: tuple[str, int] | None = None
        self.chat_cooldowns: dict[str, int] = {}
        self.reaction_cooldowns: dict[str, datetime] = {}
        self.social_pause_until: datetime | None = None
        self.decompositions: dict[str, list[tuple[str, int]]] = {}
        self.action_choices: dict[str, ActionChoice] = {}
        self._release: str | None = None
        # What this step did that the event log keeps: (kind, text, details), drained by the model.
        self.journal: list[tuple[str, str, dict]] = []
        self._init_mesa_llm_attributes()

    def _init_mesa_llm_attributes(self) -> None:
        from agents.stream_memory import StreamMemory  # noqa: PLC0415 - mesa-llm's Memory pulls in litellm

        self.llm = None
        self.memory = StreamMemory(agent=self, stream=self.memories.stream, embedder=self.memories.embedder)
        self.tool_manager = None
        self.reasoning = None
        self.vision = self.mind.config.vision_radius
        self.internal_state = []
        self.step_prompt = None
        self._current_plan = None
        self._step_display_data = {}
        self.recorder = None

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The agent's full name."""
        return self.identity.name

    @property
    def tile(self) -> tuple[int, int]:
        """Where the agent stands, (x, y)."""
        return tuple(self.cell.coordinate)

    @property
    def sleeping(self) -> bool:
        """Whether its current action is sleep."""
        return self.action is not None and is_sleep(self.action.description)

    def status(self) -> AgentStatus:
        """Its public face for this step's snapshot."""
        return AgentStatus(
            name=self.name,
            tile=self.tile,
            activity=self.action.description if self.action else "",
            address=self.action.address if self.action else "",
            sleeping=self.sleeping,
            talking_with=self.conversation.partner_of(self.name) if self.conversation else None,
            action_ends=self.action.end if self.action else None,
        )

    async def seed_memories(self, now: datetime) -> None:
        """Store the persona's seeded memories (the whisper CSV), their importance scored in batches."""
        ask = partial(self.mind.gateway.ask, agent=self.name)
        seeds = self.persona.seeds
        scores = await self._importance(ask, seeds)
        for text, score in zip(seeds, scores, strict=True):
            self.memories.add(
                NodeKind.THOUGHT, text, created=now, importance=score, subject=self.name, keywords=mentioned_names(text)
            )

    # --- deciding -----------------------------------------------------------------------------------------

    def prepare(self, view: WorldView) -> Coroutine[Any, Any, Decision] | None:
        """Perceive, and return the thinking this step needs, or None when it needs no model call."""
        now = view.now
        if self.schedule is None or self.schedule.day != now.date():
            return self.think(view, [])
        if self.conversation is not None:
            conversation = self.conversation
            my_line = not conversation.ended and conversation.speaker == self.name
            my_summary = conversation.ended and conversation.first == self.name
            return self.think(view, []) if my_line or my_summary or self.rewrite else None
        if self.sleeping and not self.action.finished(now):
            return None
        config = self.mind.config
        perception = perceive(view, self.name, self.tile, config, self.spatial, self.memories)
        me = view.agents[self.name]
        paused = self.social_pause_until is not None and now < self.social_pause_until
        candidates = [
            other
            for other in perception.new_agents(set(view.agents))
            if not paused
            and self.reaction_cooldowns.get(other, now) <= now
            and may_react(me, view.agents[other], now, self.chat_cooldowns.get(other), view.step)
        ]
        busy = (
            candidates
            or self.action is None
            or self.action.finished(now)
            or self.rewrite is not None
            or self.memories.scoring_due(now, config.importance_batch_size, config.importance_batch_minutes)
            or (config.reflection and reflection_due(self.memories, self.reflection_threshold))
        )
        return self.think(view, candidates) if busy else None

    @property
    def reflection_threshold(self) -> int:
        """Importance that triggers a reflection: the configured value, else the persona's."""
        return self.mind.config.reflection_threshold or self.persona.reflection_threshold

    async def think(self, view: WorldView, candidates: list[str]) -> Decision:
        """The model calls of one step, in the paper's order: plan, remember, talk or react, act, reflect."""
        ask = partial(self.mind.gateway.ask, agent=self.name)
        config = self.mind.config
        now = view.now
        decision = Decision()
        retrievals = self.memories.retrievals
        if self.schedule is None or self.schedule.day != now.date():
            await self._new_day(ask, now)
        if self.memories.pending and (
            self.memories.scoring_due(now, config.importance_batch_size, config.importance_batch_minutes)
            or self.action is None
        ):
            await self._score_pending(ask)
        if self.conversation is not None:
            await self._converse(ask, view, decision)
        else:
            await self._react(ask, view, candidates, decision)
        if self.rewrite is not None:
            await self._rewrite_schedule(ask, now)
        if self.conversation is None and (self.action is None or self.action.finished(now)):
            await self._next_action(ask, view)
        if config.reflection and reflection_due(self.memories, self.reflection_threshold):
            for node in await reflect(ask, self.identity, self.memories, now, config):
                self.journal.append(
                    ("reflection", node.description, {"node": node.id, "cites": list(node.evidence_ids)})
                )
        if self.memories.retrievals != retrievals:
            self._journal_recall()
        return decision

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
        yesterday = ""
        if self.schedule is not None:
            await self._score_pending(ask)
            self.identity = await summarize_day(ask, self.identity, self.memories, self.schedule.day, now)
            yesterday = self.identity.currently
        self.schedule = await plan_day(
            ask, self.identity, self.memories, now, planning=self.mind.config.planning, yesterday=yesterday
        )
        hourly = [[activity, minutes] for activity, minutes in self.schedule.hourly]
        self.journal.append(("plan", self.identity.currently, {"day": now.date().isoformat(), "blocks": hourly}))
        if self.action is not None:
            self.action.minutes = 0  # re-resolve from the new schedule

    async def _score_pending(self, ask) -> None:
        if self.memories.pending:
            texts = [memory.description for memory in self.memories.pending]
            self.memories.settle(await self._importance(ask, texts))

    async def _importance(self, ask, texts) -> list[int]:
        """Importance of memories, scored in requests of at most IMPORTANCE_REQUEST_SIZE."""
        scores: list[int] = []
        for start in range(0, len(texts), IMPORTANCE_REQUEST_SIZE):
            chunk = tuple(texts[start : start + IMPORTANCE_REQUEST_SIZE])
            scores.extend(await ask(ImportanceRequest(identity=self.identity, memories=chunk)))
        return scores

    async def _converse(self, ask, view: WorldView, decision: Decision) -> None:
        conversation = self.conversation
        if not conversation.ended and conversation.speaker == self.name:
            place = view.ville.arena_address_at(self.tile)
            decision.line = await next_line(
                ask, self.identity, self.memories, conversation, place, view.now, self.mind.config
            )
        elif conversation.ended and conversation.first == self.name:
            decision.summary = await summarize(ask, conversation)

    async def _react(self, ask, view: WorldView, candidates: list[str], decision: Decision) -> None:
        config = self.mind.config
        for other in candidates[:1]:
            self.social_pause_until = view.now + timedelta(minutes=config.pause_after_reaction_minutes)
            reaction = await decide_reaction(
                ask, self.identity, self.memories, view, view.agents[self.name], view.agents[other]
            )
            if reaction.choice == "talk":
                decision.talk_to = other
                return
            self.reaction_cooldowns[other] = view.now + timedelta(minutes=config.reaction_cooldown_minutes)
            if reaction.choice == "wait":
                ends = view.agents[other].action_ends or view.now
                wait = min(30, max(5, 5 * -(-int((ends - view.now).total_seconds() // 60) // 5)))
                self.rewrite = (f"waiting for {other} to finish {view.agents[other].activity}", wait)
                return

    async def _rewrite_schedule(self, ask, now: datetime) -> None:
        inserted, minutes = self.rewrite
        self.rewrite = None
        minute = minute_of_day(now)
        _, end = self.schedule.hourly_window(minute)
        end = max(end, min(minute + minutes, 24 * 60))
        minutes = min(minutes, end - minute)
        if minutes <= 0:
            return
        remaining = tuple(PlanBlock(activity=a, minutes=m) for a, m in self.schedule.remaining(minute, end))
        blocks = await ask(
            ScheduleRewriteRequest(
                identity=self.identity,
                now_minute=minute,
                inserted=inserted,
                inserted_minutes=minutes,
                remaining=remaining,
            )
        )
        self.schedule.rewrite(minute, end, [(block.activity, block.minutes) for block in blocks])
        if self.action is not None and not IN_PLACE.match(self.action.description):
            self.action.minutes = 0

    async def _next_action(self, ask, view: WorldView) -> None:
        now, ville = view.now, view.ville
        minute = minute_of_day(now)
        await decompose_slot(ask, self.identity, self.schedule, minute, self.decompositions)
        _, _, slot = self.schedule.slot_at(minute)
        minutes = minutes_left(self.schedule, now)
        if self.action is not None and self.action.description == slot.activity and self.action.minutes > 0:
            self.action.minutes = int((now - self.action.start).total_seconds() // 60) + minutes
            return
        here = ville.address_at(self.tile) or ville.arena_address_at(self.tile)
        if IN_PLACE.match(slot.activity):
            action = in_place_action(slot.activity, here, now, minutes, self.name)
        else:
            place = ville.place_at(self.tile)
            choice = await resolve_action(
                ask,
                self.identity,
                self.spatial,
                self.schedule,
                minute,
                (place.sector or "", place.arena or ""),
                self.action_choices,
            )
            wanted = choice_address(place.world or "the Ville", choice)
            address, path = route(ville, self.mind.paths, self.tile, wanted, self.identity.living_area, self.name)
            action = CurrentAction(
                description=slot.activity,
                address=address,
                start=now,
                minutes=minutes,
                emoji=choice.emoji,
                event=(choice.subject, choice.predicate, choice.object),
                object_state=choice.object_state if address == wanted else "",
                path=path,
            )
            if self.mind.config.observation:
                self.memories.add(
                    NodeKind.EVENT,
                    f"{self.name} is {slot.activity}",
                    created=now,
                    importance=choice.importance,
                    subject=self.name,
                    predicate=choice.predicate,
                    object=choice.object,
                    keywords=(self.name, choice.object),
                )
        self._replace_action(action)

    def _replace_action(self, action: CurrentAction) -> None:
        if self.action is not None and self.action.in_use:
            self._release = self.action.address
        self.action = action

    # --- applied by the model, in agent order ----------------------------------------------------------------

    def start_conversation(self, conversation: Conversation, now: datetime, minutes: int) -> None:
        """Stop where it stands and talk; the schedule is rewritten around the talk at the next step."""
        partner = conversation.partner_of(self.name)
        self.conversation = conversation
        description = f"talking with {partner}"
        here = self.model.ville.address_at(self.tile) or self.model.ville.arena_address_at(self.tile)
        self._replace_action(in_place_action(description, here, now, minutes, self.name))
        self.rewrite = (description, minutes)

    def end_conversation(self, summary, now: datetime, cooldown_until: int) -> None:
        """Keep the talk and what it takes from it, start the pair's cool-down, and move on."""
        conversation = self.conversation
        remember_conversation(self.memories, self.name, conversation, summary, now)
        self.chat_cooldowns[conversation.partner_of(self.name)] = cooldown_until
        self.social_pause_until = now + timedelta(minutes=self.mind.config.pause_after_talk_minutes)
        self.conversation = None
        if self.action is not None:
            self.action.minutes = 0

    async def whisper(self, statement: str, now: datetime) -> None:
        """The paper's inner voice: a memory handed to the agent, its importance scored now."""
        ask = partial(self.mind.gateway.ask, agent=self.name)
        (score,) = await ask(ImportanceRequest(identity=self.identity, memories=(statement,)))
        self.memories.add(
            NodeKind.THOUGHT,
            statement,
            created=now,
            importance=score,
            subject=self.name,
            predicate="was told",
            keywords=mentioned_names(statement),
        )

    def advance(self, state: WorldState, grid) -> None:
        """Walk one tile, take or release the object of its action, and show its event on its tile."""
        if self._release is not None:
            if self._release.count(":") == 3:
                state.reset_object(self._release)
            self._release = None
        action = self.action
        if action is None:
            return
        if action.path:
            self.cell = grid[action.path.pop(0)]
        elif not action.in_use and action.object_state and action.address.count(":") == 3:
            state.set_object_state(action.address, Event(action.address, "is", "being used", action.object_state))
            action.in_use = True
        _, predicate, obj = action.event
        state.place_agent(self.name, self.tile, Event(self.name, predicate or "is", obj, action.description))

    # --- checkpoints ------------------------------------------------------------------------------------------

    def get_state(self, *, stream: bool = True) -> dict:
        """Everything that makes this agent's future, as plain data (the conversation is the model's).

        With `stream=False` the memory stream is left out (a run folder keeps it in its memory store).
        """
        state = {
            "tile": list(self.tile),
            "currently": self.identity.currently,
            "schedule": self.schedule.get_state() if self.schedule else None,
            "action": self.action.get_state() if self.action else None,
            "rewrite": list(self.rewrite) if self.rewrite else None,
            "chat_cooldowns": dict(self.chat_cooldowns),
            "reaction_cooldowns": {name: when.isoformat() for name, when in self.reaction_cooldowns.items()},
            "social_pause_until": self.social_pause_until.isoformat() if self.social_pause_until else None,
            "decompositions": {key: [list(p) for p in pieces] for key, pieces in self.decompositions.items()},
            "action_choices": {text: asdict(choice) for text, choice in self.action_choices.items()},
            "release": self._release,
            "pending": [memory.get_state() for memory in self.memories.pending],
            "spatial": self.spatial.get_state(),
        }
        if stream:
            state["stream"] = self.memories.stream.get_state()
        return state

    def set_state(self, state: dict, grid, stream=None) -> None:
        """Restore what `get_state` saved; `stream` replaces the memory stream when the state has none."""
        from memory import MemoryStream  # noqa: PLC0415

        self.cell = grid[tuple(state["tile"])]
        self.identity = self.identity.with_currently(state["currently"])
        self.schedule = DaySchedule.from_state(state["schedule"]) if state["schedule"] else None
        self.action = CurrentAction.from_state(state["action"]) if state["action"] else None
        self.rewrite = tuple(state["rewrite"]) if state["rewrite"] else None
        self.chat_cooldowns = dict(state["chat_cooldowns"])
        self.reaction_cooldowns = {n: datetime.fromisoformat(w) for n, w in state["reaction_cooldowns"].items()}
        pause = state["social_pause_until"]
        self.social_pause_until = datetime.fromisoformat(pause) if pause else None
        self.decompositions = {k: [tuple(p) for p in v] for k, v in state["decompositions"].items()}
        self.action_choices = {text: ActionChoice(**choice) for text, choice in state["action_choices"].items()}
        self._release = state["release"]
        self.memories.pending = [PendingMemory.from_state(memory) for memory in state["pending"]]
        self.spatial.set_state(state["spatial"])
        if "stream" in state:
            stream = MemoryStream.from_state(state["stream"])
        if stream is not None:
            self.memories.stream = stream
            self.memory.stream = stream
        self.conversation = None
